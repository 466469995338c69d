import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { lazyChildLogger, RequestLines } from '../src/lib/request-logger.js';

type Line = { level: number; msg: string; reqId?: string; [key: string]: unknown };

/** A Fastify app on a pino logger at `level` whose lines are kept; `children` counts child loggers made. */
function appLogging(level: string, logController?: RequestLines) {
  const lines: Line[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  const root = pino({ level }, stream);
  const counter = { children: 0 };
  // Every logger below the root (Fastify's, each request's) inherits this method.
  const child = root.child.bind(root);
  Object.assign(root, {
    child(...args: Parameters<typeof child>) {
      counter.children++;
      return child(...args);
    },
  });
  const app = Fastify({ loggerInstance: root, childLoggerFactory: lazyChildLogger, logController });
  app.get('/quiet', async (req) => {
    req.log.info('below the level');
    return { ok: true };
  });
  app.get('/warns', async (req) => {
    req.log.info('below the level');
    req.log.warn({ part: 'wheel' }, 'something odd');
    req.log.child({ step: 2 }).warn('from a child');
    return { ok: true };
  });
  app.get('/fails', async () => {
    throw new Error('boom');
  });
  return { app, lines, counter };
}

// Pure logging, no database: once, in the PGlite project.
describe.skipIf(process.env.EVDRA_TEST_DB === 'postgres')('request logger', () => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(() => close?.());

  it('writes a request line at an enabled level with the request id, and none below it', async () => {
    const { app, lines } = appLogging('warn');
    close = () => app.close();
    await app.inject({ url: '/warns' });
    await app.inject({ url: '/warns' });
    const mine = lines.filter((l) => l.msg === 'something odd');
    expect(mine).toHaveLength(2);
    expect(mine[1]).toMatchObject({ level: 40, part: 'wheel' });
    expect(mine.every((l) => /^req-/.test(String(l.reqId)))).toBe(true);
    expect(new Set(mine.map((l) => l.reqId)).size).toBe(2);
    expect(lines.some((l) => l.msg === 'below the level')).toBe(false);
    expect(lines.filter((l) => l.msg === 'from a child').map((l) => l.step)).toEqual([2, 2]);
  });

  it("writes Fastify's request lines when info is written, and skips them when it is not", async () => {
    const fastifyLines = (lines: Line[]) =>
      lines.filter((l) => l.msg === 'incoming request' || l.msg === 'request completed').map((l) => l.msg);
    const written = appLogging('info', new RequestLines(true));
    await written.app.inject({ url: '/quiet' });
    await written.app.close();
    expect(fastifyLines(written.lines)).toEqual(['incoming request', 'request completed']);
    // Skipped by the controller itself (the logger here would still write them): the handler's own
    // info line shows the level is open.
    const skipped = appLogging('info', new RequestLines(false));
    await skipped.app.inject({ url: '/quiet' });
    await skipped.app.close();
    expect(fastifyLines(skipped.lines)).toEqual([]);
    expect(skipped.lines.some((l) => l.msg === 'below the level')).toBe(true);
  });

  it('still logs an answer that failed to send when request lines are skipped', () => {
    const logged: unknown[][] = [];
    const reply = { log: { error: (...a: unknown[]) => logged.push(a) }, elapsedTime: 3 };
    const lines = new RequestLines(false);
    lines.requestCompleted(null, {} as never, reply as never);
    lines.requestCompleted(new Error('socket hang up'), {} as never, reply as never);
    expect(logged).toHaveLength(1);
    expect(logged[0]?.[1]).toBe('request errored');
  });

  it("logs a failed request's error with its request id", async () => {
    const { app, lines } = appLogging('warn');
    close = () => app.close();
    const res = await app.inject({ url: '/fails' });
    expect(res.statusCode).toBe(500);
    const error = lines.find((l) => l.level === 50);
    expect(error?.reqId).toMatch(/^req-/);
    expect(JSON.stringify(error)).toContain('boom');
  });

  it('makes no child logger for a request that writes nothing at an enabled level', async () => {
    const { app, counter } = appLogging('warn');
    close = () => app.close();
    await app.ready();
    const before = counter.children;
    for (let i = 0; i < 5; i++) await app.inject({ url: '/quiet' });
    expect(counter.children).toBe(before);
    await app.inject({ url: '/warns' });
    expect(counter.children).toBeGreaterThan(before);
  });

  it('writes every line of a request at the info level, each with the request id', async () => {
    const { app, lines } = appLogging('info');
    close = () => app.close();
    await app.inject({ url: '/quiet' });
    const quiet = lines.filter((l) => l.msg === 'below the level');
    expect(quiet).toHaveLength(1);
    expect(quiet[0]?.reqId).toMatch(/^req-/);
  });
});
