import {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type Options = Parameters<FastifyBaseLogger['child']>[1];

/**
 * Each request's logger (`req.log`), made a real child of the app's logger (with the request id) on
 * its first line at an enabled level. Most requests write no line at all, and a pino child for each
 * cost ~2 µs of a small GET's CPU (bench:api). A route with its own level or serializers gets a real
 * child at once.
 */
export const lazyChildLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  parent,
  bindings,
  opts,
) => (opts.level || opts.serializers ? parent.child(bindings, opts) : new LazyChild(parent, bindings, opts));

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

/**
 * Fastify's own per-request lines ("incoming request", "request completed", both at info), skipped
 * before their objects are built when the log level is above info; everything else it logs (a
 * response that failed to send, errors) is unchanged.
 */
export class RequestLines extends LogController {
  constructor(private readonly info: boolean) {
    super();
  }
  override incomingRequest(request: FastifyRequest, reply: FastifyReply) {
    if (this.info) super.incomingRequest(request, reply);
  }
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error || this.info) super.requestCompleted(error, request, reply);
  }
}
