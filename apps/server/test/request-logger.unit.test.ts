import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { fastifyLogging } from '../src/lib/request-logger.js';

type Line = { level: number; msg: string; reqId?: string; [key: string]: unknown };

/**
 * A Fastify app logging as the server does (fastifyLogging) on a pino logger at `level` whose lines
 * are kept; `children` counts child loggers made; `listeners` the finish listeners each answer had.
 */
function appLogging(level: string) {
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
  const child = root.child;
  Object.assign(root, {
    child(this: typeof root, ...args: Parameters<typeof child>) {
      counter.children++;
      return child.apply(this, args);
    },
  });
  const app = Fastify(fastifyLogging(root));
  app.log = root;
  const listeners: number[] = [];
  app.get('/quiet', async (req, reply) => {
    req.log.info('below the level');
    listeners.push(reply.raw.listenerCount('finish'));
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
  app.get('/unsent', async (_req, reply) => {
    // What Fastify writes when the headers of an error answer cannot be written.
    reply.log.warn({ req: reply.request, res: reply, err: new Error('socket gone') }, 'socket gone');
    return { ok: true };
  });
  return { app, lines, counter, listeners };
}

describe('request logger', () => {
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

  it("writes Fastify's request lines when info is written; above info Fastify keeps no logger of its own", async () => {
    const fastifyLines = (lines: Line[]) =>
      lines.filter((l) => l.msg === 'incoming request' || l.msg === 'request completed');
    const written = appLogging('info');
    await written.app.inject({ url: '/quiet' });
    await written.app.close();
    const requestLines = fastifyLines(written.lines);
    expect(requestLines.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
    expect(requestLines[0]?.req).toMatchObject({ method: 'GET', url: '/quiet' });
    expect(requestLines[1]?.res).toEqual({ statusCode: 200 });
    expect(requestLines[1]?.reqId).toBe(requestLines[0]?.reqId);
    // Above info nothing times the answer for a line: Fastify adds no listener for its finish.
    const quiet = appLogging('warn');
    await quiet.app.inject({ url: '/quiet' });
    await quiet.app.close();
    expect(fastifyLines(quiet.lines)).toEqual([]);
    expect(written.listeners[0]).toBeGreaterThan(quiet.listeners[0] ?? 0);
  });

  it('writes a request and reply in a line above info as Fastify does, not as whole objects', async () => {
    const { app, lines } = appLogging('warn');
    close = () => app.close();
    await app.inject({ url: '/unsent', headers: { host: 'garage.example' } });
    const line = lines.find((l) => l.msg === 'socket gone');
    expect(line?.req).toEqual({
      method: 'GET',
      url: '/unsent',
      host: 'garage.example',
      remoteAddress: '127.0.0.1',
      remotePort: undefined,
    });
    expect(line?.res).toEqual({ statusCode: 200 });
    expect(line?.reqId).toMatch(/^req-/);
    expect(JSON.stringify(line).length).toBeLessThan(2000);
  });

  it('writes app lines through the same logger', async () => {
    const { app, lines } = appLogging('warn');
    close = () => app.close();
    app.log.warn({ part: 'door' }, 'from the app');
    expect(lines.find((l) => l.msg === 'from the app')).toMatchObject({ level: 40, part: 'door' });
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
