import { createRequire } from 'node:module';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

// The library's own stores (CommonJS, untyped): counting and expiry are theirs, not ours.
const require = createRequire(import.meta.url);
type Callback = (err: Error | null, res?: { current: number; ttl: number }) => void;
interface Store {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void;
  read?(key: string, cb: Callback, timeWindow: number, max: number): void;
  child(routeOptions: RouteOptions): Store;
}
type RouteOptions = {
  continueExceeding: boolean;
  exponentialBackoff: boolean;
  routeInfo: { method: string; url: string };
};
type StoreClass<A extends unknown[]> = new (...args: A) => Store;
const RedisStore: StoreClass<
  [boolean, boolean, Redis, string?]
> = require('@fastify/rate-limit/store/RedisStore.js');
const LocalStore: StoreClass<
  [boolean, boolean, number?]
> = require('@fastify/rate-limit/store/LocalStore.js');

/**
 * Connects to REDIS_URL for shared rate limits. Commands fail fast (no offline queue, 500 ms
 * timeout) so a Redis outage never holds a request; ioredis keeps reconnecting by itself.
 */
export async function connectRedis(url: string, log: FastifyBaseLogger): Promise<Redis> {
  // Loaded only with REDIS_URL set: a single server never pays its start-up time.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  let up = true;
  redis.on('ready', () => {
    if (!up) log.info('Redis is back: rate limits are shared again');
    up = true;
  });
  redis.on('error', (err) => {
    if (up)
      log.warn(
        { err: err.message },
        'Redis unreachable: rate limits are counted per process until it is back',
      );
    up = false;
  });
  return redis;
}

/**
 * A rate-limit store for @fastify/rate-limit's `store` option: the library's Redis store while Redis
 * answers, the library's in-memory store when it does not (so limits still apply, per process).
 */
export function fallbackStore(
  redis: Redis,
  log: FastifyBaseLogger,
  nameSpace = 'evdra-rl-',
): FastifyRateLimitStoreCtor {
  class FallbackStore implements Store {
    constructor(
      private readonly shared: Store,
      private readonly local: Store,
    ) {}

    incr(key: string, cb: Callback, timeWindow: number, max: number) {
      if (redis.status !== 'ready') return this.local.incr(key, cb, timeWindow, max);
      this.shared.incr(
        key,
        (err, res) => {
          if (!err) return cb(null, res);
          log.warn({ err: err.message }, 'Redis rate-limit call failed: counting in this process');
          this.local.incr(key, cb, timeWindow, max);
        },
        timeWindow,
        max,
      );
    }

    child(routeOptions: RouteOptions): Store {
      return new FallbackStore(this.shared.child(routeOptions), this.local.child(routeOptions));
    }
  }
  // The plugin calls `new store(globalParams)`.
  return class extends FallbackStore {
    constructor(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      const c = params.continueExceeding ?? false;
      const e = params.exponentialBackoff ?? false;
      super(new RedisStore(c, e, redis, nameSpace), new LocalStore(c, e));
    }
  } as unknown as FastifyRateLimitStoreCtor;
}
