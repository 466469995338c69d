import type { FastifyBaseLogger, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type Options = Parameters<FastifyBaseLogger['child']>[1];

/**
 * Fastify's logging options around the app's pino logger. Where info is written, Fastify logs
 * through it as usual, with its "incoming request" and "request completed" lines. Above info,
 * Fastify runs without a logger of its own, which spares every request the response listeners and
 * clock reads it adds only to time the "request completed" line (~2% of a small GET's CPU,
 * bench:ab); each request's req.log is still a lazy child of `log`. Set app.log to `log` after.
 */
export function fastifyLogging(
  log: Logger,
): Pick<FastifyServerOptions, 'logger' | 'loggerInstance' | 'childLoggerFactory'> {
  if (log.isLevelEnabled('info'))
    return {
      loggerInstance: log,
      childLoggerFactory: lazyChild,
    };
  // Fastify hands its null logger as the parent: the request's logger descends from `log`, with the
  // serializers Fastify would have added for the request and reply in its own lines (a failed write).
  const parent = log.child({}, { serializers: { req: requestFields, res: replyFields } });
  return { logger: false, childLoggerFactory: (_null, bindings, opts) => lazyChild(parent, bindings, opts) };
}

/** What Fastify's own serializers keep of a request and a reply in a log line. */
const requestFields = (req: FastifyRequest) => ({
  method: req.method,
  url: req.url,
  host: req.host,
  remoteAddress: req.ip,
  remotePort: req.socket?.remotePort,
});
const replyFields = (reply: FastifyReply) => ({ statusCode: reply.statusCode });

/**
 * Each request's logger (`req.log`), made a real child of the app's logger (with the request id) on
 * its first line at an enabled level. Most requests write no line at all, and a pino child for each
 * cost ~2 µs of a small GET's CPU (bench:api). A route with its own level or serializers gets a real
 * child at once.
 */
const lazyChild = (parent: FastifyBaseLogger, bindings: Bindings, opts: Options) =>
  opts?.level || opts?.serializers ? parent.child(bindings, opts) : new LazyChild(parent, bindings, opts);

class LazyChild implements FastifyBaseLogger {
  #child?: FastifyBaseLogger;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly opts: Options,
  ) {}

  get level() {
    return this.#child?.level ?? this.parent.level;
  }
  set level(level: string) {
    this.real().level = level;
  }
  child(bindings: Bindings, opts?: Options) {
    return this.real().child(bindings, opts);
  }
  fatal(...args: unknown[]) {
    this.write('fatal', args);
  }
  error(...args: unknown[]) {
    this.write('error', args);
  }
  warn(...args: unknown[]) {
    this.write('warn', args);
  }
  info(...args: unknown[]) {
    this.write('info', args);
  }
  debug(...args: unknown[]) {
    this.write('debug', args);
  }
  trace(...args: unknown[]) {
    this.write('trace', args);
  }
  silent() {}

  private write(level: Level, args: unknown[]) {
    if (this.#child || enabled(this.parent, level))
      (this.real()[level] as (...a: unknown[]) => void)(...args);
  }
  private real() {
    this.#child ??= this.parent.child(this.bindings, this.opts);
    return this.#child;
  }
}

/** pino answers isLevelEnabled; any other logger is asked every time. */
const enabled = (logger: FastifyBaseLogger, level: Level) =>
  (logger as { isLevelEnabled?: (l: string) => boolean }).isLevelEnabled?.(level) ?? true;
