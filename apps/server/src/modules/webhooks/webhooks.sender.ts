import { createHmac } from 'node:crypto';
import type { Language } from '@evdra/domain';
import { createNotification } from '../../db/notify.js';
import { OutboundError } from '../../lib/outbound/errors.js';
import type { OutboundGuard } from '../../lib/outbound/guard.js';
import { pollEvery } from '../../lib/poll.js';
import type { ClaimedDelivery, WebhooksRepo } from './webhooks.repo.js';

type Log = { warn: (o: object, m: string) => void; error: (o: object, m: string) => void };

/** A delivery is retried for this long after its event, then given up. */
export const RETRY_FOR_MS = 24 * 3600_000;
/** A subscription failing for this long is paused and its owner told. */
export const PAUSE_AFTER_MS = 3 * 24 * 3600_000;
/** How long a taken delivery is reserved to the process sending it. */
const LEASE_SECONDS = 60;
const SEND_TIMEOUT_MS = 10_000;

/** 30 s, 1, 2, 4… minutes, at most 2 hours between attempts. */
export function webhookBackoffMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 2 * 3600_000);
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>` (the Stripe scheme). */
export function signature(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

const PAUSED_TEXTS: Record<Language, (url: string) => { title: string; content: string }> = {
  en: (url) => ({
    title: 'A webhook was paused',
    content: `Deliveries to ${url} have failed for 3 days, so it was paused. Fix the receiver, then resume it in Settings.`,
  }),
  ro: (url) => ({
    title: 'Un webhook a fost pus pe pauză',
    content: `Livrările către ${url} eșuează de 3 zile, așa că a fost pus pe pauză. Repară receptorul, apoi reia-l din Setări.`,
  }),
  es: (url) => ({
    title: 'Se ha pausado un webhook',
    content: `Los envíos a ${url} fallan desde hace 3 días, así que se ha pausado. Arregla el receptor y reanúdalo en Ajustes.`,
  }),
};

/**
 * Sends the webhook outbox through the outbound guard (https, public addresses checked as the socket
 * connects, no redirects): each subscription's deliveries in order, signed, with the event's id as
 * X-Evdra-Delivery (the same on every attempt: receivers drop a repeat). 2xx: delivered; anything
 * else (3xx, 4xx, 5xx, refused, unreachable): again later with exponential backoff, for a day after
 * the event; then failed, and the next one goes. A subscription failing for 3 days is paused and its
 * owner notified. `now` is the clock (tests pass one to `drain`, so nobody sleeps).
 */
export class WebhookSender {
  private running?: Promise<number>;

  constructor(
    private readonly repo: WebhooksRepo,
    private readonly outbound: OutboundGuard,
    private readonly language: (userId: number) => Promise<Language>,
    private readonly log: Log,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Sends what is due (at `at`, the clock's time by default) until nothing is; resolves to the deliveries made. */
  drain(at?: Date): Promise<number> {
    this.running ??= this.sendAll(at).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Drains now and every `intervalMs`; returns the stop function. */
  start(intervalMs: number): () => Promise<void> {
    return pollEvery(
      () => this.drain(),
      intervalMs,
      (err) => this.log.error({ err }, 'webhook outbox failed'),
      () => this.running,
    );
  }

  private async sendAll(at?: Date): Promise<number> {
    let delivered = 0;
    for (;;) {
      const now = at ?? this.now();
      const batch = await this.repo.claim(now, 20, LEASE_SECONDS);
      if (batch.length === 0) return delivered;
      const results = await Promise.all(batch.map((d) => this.send(d, at)));
      delivered += results.filter(Boolean).length;
    }
  }

  private async send(d: ClaimedDelivery, at?: Date): Promise<boolean> {
    let status: number | null = null;
    let error = '';
    const sentAt = at ?? this.now();
    try {
      const res = await this.outbound.request(d.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Evdra-Webhooks/1',
          'x-evdra-event': d.event,
          'x-evdra-delivery': d.eventId,
          'x-evdra-signature': signature(d.secret, d.body, sentAt),
        },
        body: new TextEncoder().encode(d.body),
        timeoutMs: SEND_TIMEOUT_MS,
      });
      status = res.status;
      if (status >= 200 && status < 300) {
        await this.repo.delivered(d, status, sentAt);
        return true;
      }
      error = `HTTP ${status}`;
    } catch (err) {
      if (err instanceof OutboundError) {
        status = err.status ?? null;
        error =
          err.kind === 'redirect'
            ? `Redirect (${err.status}) not followed`
            : err.kind === 'refused'
              ? `Refused: ${err.message}`
              : err.message;
      } else error = err instanceof Error ? err.message : String(err);
    }
    const finished = at ?? this.now();
    const deadline = d.createdAt.getTime() + RETRY_FOR_MS;
    const retryAt =
      finished.getTime() < deadline
        ? new Date(Math.min(finished.getTime() + webhookBackoffMs(d.attempts), deadline))
        : undefined;
    const failingSince = await this.repo.failed(d, { status, error }, finished, retryAt);
    if (failingSince && finished.getTime() - failingSince.getTime() >= PAUSE_AFTER_MS) {
      await this.pause(d, finished);
    }
    return false;
  }

  private async pause(d: ClaimedDelivery, at: Date) {
    if (!(await this.repo.pause(d.webhookId, at))) return;
    this.log.warn({ webhook: d.webhookId }, 'webhook failing for 3 days: paused');
    const text = PAUSED_TEXTS[await this.language(d.userId)](d.url);
    await createNotification(this.repo.db, {
      userId: d.userId,
      vehicleId: null,
      type: 'WEBHOOK_PAUSED',
      ...text,
    });
  }
}
