import { Flights } from './flights.js';

type Entry<V, Version> = { version: Version; value: V; weight: number; read: boolean };

/**
 * Values kept with the version they were built at, dropped once their total weight (by default a
 * text's length) passes `maxWeight`: oldest first, but one read since it was last considered gets a
 * second chance (CLOCK, the usual approximation of least recently used: a hit only sets a flag,
 * where re-inserting into the Map cost ~1 µs of every cached answer). A value is only answered for
 * the very version it was stored at.
 */
export class VersionedCache<V = string, Version = number> {
  private readonly entries = new Map<string, Entry<V, Version>>();
  private weight = 0;

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (value: V) => number = (value) => String(value).length,
  ) {}

  get(key: string, version: Version): V | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version) return undefined;
    entry.read = true;
    return entry.value;
  }

  set(key: string, version: Version, value: V): void {
    this.drop(key);
    const weight = this.weigh(value);
    // One value may not push out everything else.
    if (weight > this.maxWeight / 4) return;
    this.weight += weight;
    // Room first, so the new value is never the one dropped. Map keeps insertion order: the first
    // entry is the oldest; a read one goes round once more.
    while (this.weight > this.maxWeight) {
      const [oldestKey, oldest] = this.entries.entries().next().value as [string, Entry<V, Version>];
      if (oldest.read) {
        oldest.read = false;
        this.entries.delete(oldestKey);
        this.entries.set(oldestKey, oldest);
      } else this.drop(oldestKey);
    }
    this.entries.set(key, { version, value, weight, read: false });
  }

  /**
   * The value kept for `key` at `version`, or else the one `load` reads, then kept at that version
   * (unless undefined). Read the version before calling: a write in between then leaves a newer value
   * under the older version, which the next read (seeing the newer version) replaces; never an older
   * value under a newer version. Asked at the same version while loading: one load for all (Flights).
   */
  async through(key: string, version: Version, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const kept = this.get(key, version);
    if (kept !== undefined) return kept;
    return this.loading.run(key, version, async () => {
      const value = await load();
      if (value !== undefined) this.set(key, version, value);
      return value;
    });
  }
  private readonly loading = new Flights<V | undefined, Version>();

  get size(): number {
    return this.entries.size;
  }

  private drop(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }
}
