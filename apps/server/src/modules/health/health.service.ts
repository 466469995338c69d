import type { Health, ServiceHealth } from '@evdra/domain';

/**
 * One optional service /api/health reports (Redis, SMTP, AI, push…). `check` resolves when the
 * service answers and throws when it does not; what it throws is shown only as a code (see
 * `reasonOf`), never its message, which may hold an address or a credential.
 */
export type ServiceProbe = {
  name: string;
  configured: boolean;
  check?: () => Promise<void>;
};

/** A service this server does not use (or that is not configured): reported, never checked. */
export const notConfigured = (name: string): ServiceProbe => ({ name, configured: false });

type Options = {
  kind: Health['database']['kind'];
  ping: () => Promise<void>;
  services: ServiceProbe[];
  /** A check slower than this counts as unreachable (TIMEOUT). */
  timeoutMs?: number;
  /** How long an optional service's answer is reused: /api/health never floods a remote service. */
  servicesCacheMs?: number;
  /** How long the database's answer is reused by /api/health (/ready always asks anew). */
  databaseCacheMs?: number;
  now?: () => number;
};

type Cached<T> = { at: number; value: Promise<T> };

/** What /api/health and /api/health/ready answer; the checks are cached and run at most once at a time. */
export class HealthService {
  private readonly timeoutMs: number;
  private readonly servicesCacheMs: number;
  private readonly databaseCacheMs: number;
  private readonly now: () => number;
  private database?: Cached<{ reachable: boolean; error?: string }>;
  private readonly services = new Map<string, Cached<ServiceHealth>>();

  constructor(private readonly o: Options) {
    this.timeoutMs = o.timeoutMs ?? 2_000;
    this.servicesCacheMs = o.servicesCacheMs ?? 30_000;
    this.databaseCacheMs = o.databaseCacheMs ?? 2_000;
    this.now = o.now ?? Date.now;
  }

  async health(): Promise<Health> {
    const [database, ...services] = await Promise.all([
      this.databaseState(false),
      ...this.o.services.map((p) => this.serviceState(p)),
    ]);
    return {
      status: database.reachable ? 'ok' : 'degraded',
      database: { kind: this.o.kind, ...database },
      services: Object.fromEntries(this.o.services.map((p, i) => [p.name, services[i] as ServiceHealth])),
    };
  }

  /** Whether the server can serve requests now: the database answers (asked anew each time). */
  async ready(): Promise<{ reachable: boolean; error?: string }> {
    return this.databaseState(true);
  }

  private databaseState(fresh: boolean) {
    const c = this.database;
    if (!fresh && c && this.now() - c.at < this.databaseCacheMs) return c.value;
    const value = this.attempt(this.o.ping);
    this.database = { at: this.now(), value };
    return value;
  }

  private serviceState(p: ServiceProbe): Promise<ServiceHealth> {
    const check = p.check;
    if (!p.configured || !check) return Promise.resolve({ configured: p.configured, reachable: null });
    const c = this.services.get(p.name);
    if (c && this.now() - c.at < this.servicesCacheMs) return c.value;
    const value = this.attempt(check).then((r) => ({ configured: true, ...r }));
    this.services.set(p.name, { at: this.now(), value });
    return value;
  }

  private async attempt(check: () => Promise<void>): Promise<{ reachable: boolean; error?: string }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ProbeTimeout()), this.timeoutMs);
    });
    try {
      await Promise.race([check(), timeout]);
      return { reachable: true };
    } catch (err) {
      return { reachable: false, error: reasonOf(err) };
    } finally {
      clearTimeout(timer);
    }
  }
}

class ProbeTimeout extends Error {}

/** A failed check as a code a self-hoster can look up: never the error's text (addresses, credentials). */
export function reasonOf(err: unknown): string {
  if (err instanceof ProbeTimeout) return 'TIMEOUT';
  const { code, status } = (err ?? {}) as { code?: unknown; status?: unknown };
  if (typeof status === 'number') return `HTTP ${status}`;
  if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code)) return code;
  return 'UNREACHABLE';
}
