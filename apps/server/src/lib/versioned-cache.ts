/**
 * Values kept with the version they were built at, least recently used dropped first once their
 * total weight (by default a text's length) passes `maxWeight`. A value is only answered for the
 * very version it was stored at.
 */
export class VersionedCache<V = string, Version = number> {
  private readonly entries = new Map<string, { version: Version; value: V; weight: number }>();
  private weight = 0;

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (value: V) => number = (value) => String(value).length,
  ) {}

  get(key: string, version: Version): V | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version) return undefined;
    // Map keeps insertion order: re-inserting marks it the most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, version: Version, value: V): void {
    this.drop(key);
    const weight = this.weigh(value);
    // One value may not push out everything else.
    if (weight > this.maxWeight / 4) return;
    this.entries.set(key, { version, value, weight });
    this.weight += weight;
    for (const oldest of this.entries.keys()) {
      if (this.weight <= this.maxWeight) break;
      this.drop(oldest);
    }
  }

  /**
   * The value kept for `key` at `version`, or else the one `load` reads, then kept at that version
   * (unless undefined). Read the version before calling: a write in between then leaves a newer value
   * under the older version, which the next read (seeing the newer version) replaces; never an older
   * value under a newer version.
   */
  async through(key: string, version: Version, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const kept = this.get(key, version);
    if (kept !== undefined) return kept;
    const value = await load();
    if (value !== undefined) this.set(key, version, value);
    return value;
  }

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
