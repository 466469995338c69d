import { Flights } from '../../lib/flights.js';

/** A kept answer: its JSON's bytes, the stamp it is true for, and the next page's cursor of a paged list. */
type Kept = { stamp: string; json: Buffer; next?: string | null };

/**
 * Written answers kept with the stamp they are true for, the least recently read dropped first once
 * their bytes pass a budget (a twenty-year car's monthly answer is ~70 KB). The caller compares the
 * stamp with the database's before handing an answer out again. Kept as UTF-8 bytes, not text: the
 * same Buffer sent again is neither encoded again nor compressed again (the compression plugin keeps
 * each Buffer's codings; a fleet's 3 MB of car-months took ~30 ms of Brotli on every read).
 */
export class AnswersKept {
  private readonly kept = new Map<string, Kept>();
  private bytes = 0;

  constructor(private readonly budgetBytes: number) {}

  get(key: string): Kept | undefined {
    const answer = this.kept.get(key);
    if (answer) {
      // Read again: now the most recent (a Map keeps insertion order).
      this.kept.delete(key);
      this.kept.set(key, answer);
    }
    return answer;
  }

  /**
   * Keeps `text` as its bytes and answers them. `next`: the cursor of the page after this answer, when
   * it is a page of a list with more.
   */
  set(key: string, stamp: string, text: string | Buffer, next?: string | null): Buffer {
    this.delete(key);
    const json = Buffer.isBuffer(text) ? text : Buffer.from(text);
    if (json.length > this.budgetBytes) return json;
    this.kept.set(key, { stamp, json, next });
    this.bytes += json.length;
    for (const oldest of this.kept.keys()) {
      if (this.bytes <= this.budgetBytes) break;
      this.delete(oldest);
    }
    return json;
  }

  /**
   * The answer kept for `key` at `stamp`, or else the one `load` writes, then kept; asked again at the
   * same stamp while it is written, one writing for all (ten readers of a fleet's 7,901 car-months
   * missed at once each wrote them, issue 54). Read the stamp before calling.
   */
  async through(
    key: string,
    stamp: string,
    load: () => Promise<{ json: string; next?: string | null }>,
  ): Promise<{ json: Buffer; next: string | null }> {
    const answer = this.get(key);
    if (answer && answer.stamp === stamp) return { json: answer.json, next: answer.next ?? null };
    return this.writing.run(key, stamp, async () => {
      const written = await load();
      return { json: this.set(key, stamp, written.json, written.next), next: written.next ?? null };
    });
  }
  private readonly writing = new Flights<{ json: Buffer; next: string | null }, string>();

  private delete(key: string): void {
    const answer = this.kept.get(key);
    if (!answer) return;
    this.kept.delete(key);
    this.bytes -= answer.json.length;
  }
}
