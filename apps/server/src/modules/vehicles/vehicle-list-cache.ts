import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';

export const VEHICLES_CHANGED = 'evdra_vehicles_changed';

/**
 * A kept list page: its JSON's bytes, handed out as the same Buffer on every read (the compression
 * plugin keeps each Buffer's codings, so a browser's read is compressed once, not every time), and
 * the cursor of the page after it ('' on the last).
 */
export type KeptList = { json: Buffer; next: string };

/**
 * The GET /api/vehicles answer per viewer (a user's own list, or every vehicle for an admin), the app's
 * hottest read, kept as its UTF-8 bytes: sent without being encoded again (~5% of its CPU,
 * bench:ab); also a user's unlisted cars (GET /api/marketplace/my-vehicles, keyed with the market's stamp). Any change to vehicles or owners' names, to a user's language, currency or units, or to
 * the exchange rates (the AI reasons are written for each reader, issue 50) empties it: synchronously
 * after a write in this process, and through LISTEN/NOTIFY (database triggers) for writes from any
 * other process.
 * While the notification feed is down, nothing is cached.
 */
export class VehicleListCache {
  private readonly entries = new Map<string, KeptList>();
  private live = false;
  /** Bumped by every clear, so an answer read before a change is never stored after it. */
  private generation = 0;

  constructor(private readonly maxEntries = 1000) {}

  async connect(database: Database, log: FastifyBaseLogger): Promise<() => Promise<void>> {
    let closed = false;
    let stop: (() => Promise<void>) | undefined;
    let retry: NodeJS.Timeout | undefined;
    const subscribe = async () => {
      stop = await database.listen(
        VEHICLES_CHANGED,
        () => this.clear(),
        (err) => {
          if (!this.live) return;
          this.live = false;
          this.clear();
          log.warn({ err }, 'vehicle change feed lost: vehicle lists are not cached until it is back');
          stop?.().catch(() => {});
          stop = undefined;
          reconnect();
        },
      );
      this.clear();
      this.live = true;
    };
    // The feed comes back by itself (a database restart, a killed connection).
    const reconnect = () => {
      if (closed) return;
      retry = setTimeout(() => subscribe().catch(reconnect), 500);
      retry.unref();
    };
    await subscribe();
    return async () => {
      closed = true;
      this.live = false;
      clearTimeout(retry);
      await stop?.().catch(() => {});
    };
  }

  /** The cached answer, or a loader that stores what it loads unless a change happened meanwhile. */
  async getOrLoad(key: string, load: () => Promise<KeptList>): Promise<KeptList> {
    const hit = this.live ? this.entries.get(key) : undefined;
    if (hit !== undefined) return hit;
    const generation = this.generation;
    const list = await load();
    if (this.live && generation === this.generation) {
      if (this.entries.size >= this.maxEntries)
        this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, list);
    }
    return list;
  }

  clear = () => {
    this.generation += 1;
    this.entries.clear();
  };
}
