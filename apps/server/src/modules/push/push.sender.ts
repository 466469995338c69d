import webpush from 'web-push';
import { OutboundError } from '../../lib/outbound/errors.js';
import type { OutboundGuard } from '../../lib/outbound/guard.js';
import { pollEvery } from '../../lib/poll.js';
import type { ClaimedPush, PushRepo } from './push.repo.js';

export type Vapid = { publicKey: string; privateKey: string; subject: string };
type Log = { warn: (o: object, m: string) => void; error: (o: object, m: string) => void };

/** A push not delivered after this many tries is dropped. */
const MAX_ATTEMPTS = 8;
/** How long a taken push is reserved to the process sending it. */
const LEASE_SECONDS = 60;
const SEND_TIMEOUT_MS = 10_000;

/** 30 s, 1, 2, 4… minutes, at most 6 hours; a push service's Retry-After wins when it is longer. */
export function backoffMs(attempts: number, retryAfter?: string | null): number {
  const exp = Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 6 * 3600_000);
  const seconds = retryAfter ? Number(retryAfter) : Number.NaN;
  return Number.isFinite(seconds) && seconds * 1000 > exp ? Math.min(seconds * 1000, 6 * 3600_000) : exp;
}

/**
 * Sends the push outbox: payloads encrypted (aes128gcm, RFC 8291) and signed (VAPID) by `web-push`,
 * posted through the outbound guard (https, public addresses checked as the socket connects, no
 * redirects). 2xx: done; 404/410: the device is gone, its subscription goes; 429/5xx/network:
 * again later with backoff; 3xx and other 4xx: dropped.
 * An endpoint the guard refuses is handled exactly as an unreachable one (retried, then dropped;
 * the subscription stays): only a service the guard let us reach can have a subscription removed,
 * so the removal tells a user nothing about addresses inside the network.
 * Never called by the code that creates notifications: they only queue.
 */
export class PushSender {
  private running?: Promise<number>;

  constructor(
    private readonly repo: PushRepo,
    private readonly vapid: () => Promise<Vapid>,
    private readonly outbound: OutboundGuard,
    private readonly log: Log,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Sends what is due until nothing is; one drain at a time per process. Resolves to the pushes delivered. */
  drain(): Promise<number> {
    this.running ??= this.sendAll().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Drains now and every `intervalMs`; returns the stop function. */
  start(intervalMs: number): () => Promise<void> {
    return pollEvery(
      () => this.drain(),
      intervalMs,
      (err) => this.log.error({ err }, 'push outbox failed'),
      () => this.running,
    );
  }

  private async sendAll(): Promise<number> {
    let delivered = 0;
    for (;;) {
      const batch = await this.repo.claim(20, LEASE_SECONDS);
      if (batch.length === 0) return delivered;
      const keys = await this.vapid();
      const results = await Promise.all(batch.map((p) => this.send(p, keys)));
      delivered += results.filter(Boolean).length;
    }
  }

  private async send(p: ClaimedPush, vapid: Vapid): Promise<boolean> {
    let req: ReturnType<typeof webpush.generateRequestDetails>;
    try {
      req = webpush.generateRequestDetails(
        { endpoint: p.endpoint, keys: { p256dh: p.p256dh, auth: p.auth } },
        JSON.stringify(p.payload),
        { vapidDetails: vapid, TTL: 24 * 3600, contentEncoding: 'aes128gcm', urgency: 'high' },
      );
    } catch (err) {
      if (err instanceof Error && /public key|auth|Vapid/i.test(err.message)) {
        // Keys the encryption refuses: this subscription can never receive.
        this.log.warn({ err, subscription: p.subscriptionId }, 'push subscription unusable; removed');
        await this.repo.removeById(p.subscriptionId);
        return false;
      }
      throw err;
    }
    let status = 0;
    let retryAfter: string | null = null;
    try {
      const res = await this.outbound.request(req.endpoint, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: req.body ? new Uint8Array(req.body) : undefined,
        timeoutMs: SEND_TIMEOUT_MS,
      });
      status = res.status;
      const header = res.headers['retry-after'];
      retryAfter = (Array.isArray(header) ? header[0] : header) ?? null;
    } catch (err) {
      if (err instanceof OutboundError && err.kind === 'redirect') status = err.status ?? 0;
      else if (err instanceof OutboundError && err.kind === 'refused') {
        this.log.warn(
          { push: p.id, reason: err.message },
          'push endpoint refused by the outbound guard; will retry',
        );
      } else this.log.warn({ err, push: p.id }, 'push service unreachable; will retry');
    }
    if (status >= 200 && status < 300) {
      await this.repo.done(p.id);
      return true;
    }
    if (status === 404 || status === 410) {
      await this.repo.removeById(p.subscriptionId);
      return false;
    }
    if ((status === 0 || status === 429 || status >= 500) && p.attempts < MAX_ATTEMPTS) {
      await this.repo.retryAt(p.id, new Date(this.now().getTime() + backoffMs(p.attempts, retryAfter)));
      return false;
    }
    this.log.warn({ push: p.id, status, attempts: p.attempts }, 'push dropped');
    await this.repo.done(p.id);
    return false;
  }
}
