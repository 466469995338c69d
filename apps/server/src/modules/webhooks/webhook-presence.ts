import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../../db/client.js';
import { WEBHOOKS_CHANGED, WebhooksRepo } from './webhooks.repo.js';

/**
 * Whether any webhook exists on this instance, so a record write skips its webhook statement (0.6 ms
 * of a 4.7 ms fill-up on PGlite, bench/webhook-cost.ts) where nobody has one. Asked once, then kept
 * until a webhook is added or deleted: forgotten synchronously in this process, and in every other
 * replica through LISTEN/NOTIFY, milliseconds after the commit (a TTL would let another replica drop
 * a new webhook's events for the whole TTL). While the feed is down nothing is kept
 * and every write runs its webhook statement, as without this guard.
 */
export class WebhookPresence {
  private known: boolean | undefined;
  private live = false;
  /** Bumped by every forget, so an answer read before a change is never kept after it. */
  private generation = 0;

  get listening() {
    return this.live;
  }

  /**
   * Listens for webhook changes, in the background (not live until subscribed; retried until it is),
   * so a start never waits for it. Returns the stop.
   */
  listen(database: Database, log: FastifyBaseLogger): () => Promise<void> {
    let closed = false;
    let stop: (() => Promise<void>) | undefined;
    let retry: NodeJS.Timeout | undefined;
    const subscribe = async () => {
      const unlisten = await database.listen(WEBHOOKS_CHANGED, this.forget, (err) => {
        if (!this.live) return;
        this.live = false;
        this.forget();
        log.warn({ err }, 'webhook change feed lost: every write looks for webhooks until it is back');
        stop?.().catch(() => {});
        stop = undefined;
        reconnect();
      });
      if (closed) return unlisten();
      stop = unlisten;
      this.forget();
      this.live = true;
    };
    const reconnect = () => {
      if (closed) return;
      retry = setTimeout(() => subscribe().catch(reconnect), 500);
      retry.unref();
    };
    subscribe().catch(reconnect);
    return async () => {
      closed = true;
      this.live = false;
      clearTimeout(retry);
      await stop?.().catch(() => {});
    };
  }

  /** False only when no webhook exists anywhere (then no event can have a subscriber); read on `db`. */
  async any(db: Executor): Promise<boolean> {
    // Feed down: the event's own statement finds who wants it, as if there were no guard.
    if (!this.live) return true;
    if (this.known !== undefined) return this.known;
    const generation = this.generation;
    const any = await new WebhooksRepo(db).anyAtAll();
    if (generation === this.generation) this.known = any;
    return any;
  }

  forget = () => {
    this.generation += 1;
    this.known = undefined;
  };
}
