import { Flights } from '../../lib/flights.js';

/** A kept answer: its JSON text, the stamp it is true for, and the next page's cursor of a paged list. */
type Kept = { stamp: string; json: string; next?: string | null };

/**
 * Written answers kept with the stamp they are true for, the least recently read dropped first once
 * their text passes a budget (a twenty-year car's monthly answer is ~70 KB). The caller compares the
 * stamp with the database's before handing an answer out again.
 */
export class AnswersKept {
  private readonly kept = new Map<string, Kept>();
  private chars = 0;

  constructor(private readonly budgetChars: number) {}

  get(key: string): Kept | undefined {
    const answer = this.kept.get(key);
    if (answer) {
      // Read again: now the most recent (a Map keeps insertion order).
      this.kept.delete(key);
      this.kept.set(key, answer);
    }
    return answer;
  }

  /** `next`: the cursor of the page after this answer, when it is a page of a list with more. */
  set(key: string, stamp: string, json: string, next?: string | null): void {
    this.delete(key);
    if (json.length > this.budgetChars) return;
    this.kept.set(key, { stamp, json, next });
    this.chars += json.length;
    for (const oldest of this.kept.keys()) {
      if (this.chars <= this.budgetChars) break;
      this.delete(oldest);
    }
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
  ): Promise<{ json: string; next: string | null }> {
    const answer = this.get(key);
    if (answer && answer.stamp === stamp) return { json: answer.json, next: answer.next ?? null };
    return this.writing.run(key, stamp, async () => {
      const written = await load();
      this.set(key, stamp, written.json, written.next);
      return { json: written.json, next: written.next ?? null };
    });
  }
  private readonly writing = new Flights<{ json: string; next: string | null }, string>();

  private delete(key: string): void {
    const answer = this.kept.get(key);
    if (!answer) return;
    this.kept.delete(key);
    this.chars -= answer.json.length;
  }
}
