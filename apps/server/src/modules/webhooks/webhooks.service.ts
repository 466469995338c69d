import { randomBytes } from 'node:crypto';
import type {
  Webhook,
  WebhookBody,
  WebhookCreated,
  WebhookDelivery,
  WebhookEvent,
  WebhookUpdateBody,
} from '@evdra/domain';
import { fieldError, notFound } from '../../lib/errors.js';
import { OutboundRefused } from '../../lib/outbound/errors.js';
import type { OutboundGuard } from '../../lib/outbound/guard.js';
import type { Principal } from '../../lib/session.js';
import type { WebhookPresence } from './webhook-presence.js';
import type { DeliveryRow, WebhookRow, WebhooksRepo } from './webhooks.repo.js';
import type { WebhookSender } from './webhooks.sender.js';

/** A user's webhook subscriptions (issue 53): each an https URL, its events and a signing secret. */
export class WebhooksService {
  constructor(
    private readonly repo: WebhooksRepo,
    private readonly outbound: OutboundGuard,
    private readonly sender: WebhookSender,
    private readonly presence: WebhookPresence,
  ) {}

  async list(p: Principal): Promise<Webhook[]> {
    return (await this.repo.list(p.userId)).map(present);
  }

  async create(p: Principal, body: WebhookBody): Promise<WebhookCreated> {
    await this.checkUrl(body.url);
    const secret = `whsec_${randomBytes(32).toString('base64url')}`;
    const row = await this.repo.insert({
      userId: p.userId,
      url: body.url,
      events: unique(body.events),
      kinds: body.kinds ? unique(body.kinds) : null,
      secret,
    });
    // This process's next write looks again at once (other processes: by NOTIFY).
    this.presence.forget();
    return { ...present(row), secret };
  }

  async update(p: Principal, id: number, body: WebhookUpdateBody): Promise<Webhook> {
    const existing = await this.repo.get(p.userId, id);
    if (!existing) throw notFound('Webhook');
    if (body.url !== undefined) await this.checkUrl(body.url);
    const changes = {
      ...(body.url !== undefined ? { url: body.url } : {}),
      ...(body.events !== undefined ? { events: unique(body.events) } : {}),
      ...(body.kinds !== undefined ? { kinds: body.kinds ? unique(body.kinds) : null } : {}),
      // Resumed: a fresh start (its failures so far no longer count toward a pause).
      ...(body.paused === false ? { pausedAt: null, failingSince: null } : {}),
      ...(body.paused === true ? { pausedAt: new Date() } : {}),
    };
    // Nothing to change (every field is optional): the webhook as it is, not an UPDATE with no SET.
    if (Object.keys(changes).length === 0) return present(existing);
    const row = await this.repo.update(p.userId, id, changes);
    if (!row) throw notFound('Webhook');
    if (body.paused === false) this.kick();
    return present(row);
  }

  async remove(p: Principal, id: number) {
    if (!(await this.repo.remove(p.userId, id))) throw notFound('Webhook');
    this.presence.forget();
  }

  async deliveries(p: Principal, id: number): Promise<WebhookDelivery[]> {
    if (!(await this.repo.get(p.userId, id))) throw notFound('Webhook');
    return (await this.repo.deliveries(id)).map(presentDelivery);
  }

  async resend(p: Principal, id: number, deliveryId: number): Promise<WebhookDelivery> {
    if (!(await this.repo.get(p.userId, id))) throw notFound('Webhook');
    const row = await this.repo.resend(id, deliveryId);
    if (!row) throw notFound('Delivery');
    this.kick();
    return presentDelivery(row);
  }

  /** Sends what is due now, without waiting for the next round of the worker. */
  private kick() {
    void this.sender.drain().catch(() => undefined);
  }

  /** https on a public address (400 on `url` otherwise); checked again at each delivery. */
  private async checkUrl(url: string) {
    try {
      await this.outbound.check(url);
    } catch (err) {
      if (!(err instanceof OutboundRefused)) throw err;
      throw fieldError(
        'VALIDATION_FAILED',
        400,
        'url',
        err.reason === 'address'
          ? 'The URL must be on the public internet, not a private, local or reserved address.'
          : 'The URL must be an https:// URL.',
      );
    }
  }
}

const unique = <T>(list: T[]) => [...new Set(list)];

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

const present = (w: WebhookRow): Webhook => ({
  id: w.id,
  url: w.url,
  events: w.events as WebhookEvent[],
  kinds: (w.kinds ?? null) as Webhook['kinds'],
  pausedAt: iso(w.pausedAt),
  failingSince: iso(w.failingSince),
  createdAt: w.createdAt.toISOString(),
});

const presentDelivery = (d: DeliveryRow): WebhookDelivery => ({
  id: Number(d.id),
  eventId: d.eventId,
  event: d.event,
  status: d.status,
  attempts: d.attempts,
  responseStatus: d.responseStatus,
  error: d.error,
  nextAttemptAt: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
  deliveredAt: iso(d.deliveredAt),
  createdAt: d.createdAt.toISOString(),
});
