/**
 * One load per key and version at a time: a caller asking for the same key at the same version while
 * its load runs shares that load's result, and its failure (readers that missed a kept answer at once
 * each loaded it, issue 54). Another version loads on its own.
 */
export class Flights<V, Version = unknown> {
  private readonly running = new Map<string, { version: Version; value: Promise<V> }>();

  run(key: string, version: Version, load: () => Promise<V>): Promise<V> {
    const flight = this.running.get(key);
    if (flight?.version === version) return flight.value;
    const value = load();
    this.running.set(key, { version, value });
    const landed = () => {
      if (this.running.get(key)?.value === value) this.running.delete(key);
    };
    value.then(landed, landed);
    return value;
  }
}
