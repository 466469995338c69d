import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import { VEHICLES_CHANGED } from '../vehicles/vehicle-list-cache.js';

export const MARKET_CHANGED = 'evdra_market_changed';

/**
 * Serialized GET /api/marketplace/listings answers by filter. Every change to listings, to the
 * record summary of a car (vehicle_history), to vehicles or to usernames empties it: synchronously
 * after a write in this process, and through LISTEN/NOTIFY (database triggers) for writes from any
 * process. While either feed is down, nothing is cached.
 */
export class MarketListCache {
  private readonly entries = new Map<string, string>();
  private feeds = 0;
  private generation = 0;

  constructor(private readonly maxEntries = 200) {}

  async connect(database: Database, log: FastifyBaseLogger): Promise<() => Promise<void>> {
    const stops: (() => Promise<void>)[] = [];
    for (const channel of [MARKET_CHANGED, VEHICLES_CHANGED]) {
      stops.push(
        await database.listen(channel, this.clear, (err) => {
          this.feeds = Number.NEGATIVE_INFINITY;
          this.clear();
          log.warn({ err, channel }, 'marketplace change feed lost: listings are no longer cached');
        }),
      );
      this.feeds += 1;
    }
    return async () => {
      this.feeds = Number.NEGATIVE_INFINITY;
      await Promise.all(stops.map((s) => s()));
    };
  }

  private get live() {
    return this.feeds === 2;
  }

  async getOrLoad(key: string, load: () => Promise<string>): Promise<string> {
    const hit = this.live ? this.entries.get(key) : undefined;
    if (hit !== undefined) return hit;
    const generation = this.generation;
    const json = await load();
    if (this.live && generation === this.generation) {
      if (this.entries.size >= this.maxEntries)
        this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, json);
    }
    return json;
  }

  clear = () => {
    this.generation += 1;
    this.entries.clear();
  };
}
