import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { SessionsRepo } from './sessions.repo.js';

/** NOTIFY channel (migration 0007): 'f:<family uuid>' when a family is revoked, 'u:<id>' when a user changes. */
export const SESSIONS_CHANNEL = 'evdra_sessions';
const RECONNECT_MS = 500;

/**
 * Whether a session family (one login) is still live, checked on every authenticated request so
 * logout and revocation end the access token at once. Answers come from a small per-process map;
 * a revocation empties the entry synchronously in this process and, through LISTEN/NOTIFY
 * (database triggers), in every other one. While the feed is down nothing is cached (one indexed
 * query per request) and the feed reconnects by itself.
 */
export class SessionFamilyCache {
  private readonly entries = new Map<string, { userId: number; live: boolean }>();
  private feedUp = false;
  private generation = 0;
  private closed = false;
  private unlisten: (() => Promise<void>) | undefined;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly sessions: SessionsRepo,
    /** Called for every user change any process reports (drop cached auth state). */
    private readonly userChanged: (userId: number) => void = () => {},
    private readonly maxEntries = 10_000,
  ) {}

  get listening() {
    return this.feedUp;
  }

  async connect(database: Database, log: FastifyBaseLogger): Promise<() => Promise<void>> {
    const subscribe = async () => {
      this.unlisten = await database.listen(
        SESSIONS_CHANNEL,
        (payload) => this.onMessage(payload),
        (err) => {
          if (!this.feedUp) return;
          this.feedUp = false;
          this.clear();
          log.warn({ err }, 'session feed lost: checking sessions in the database until it is back');
          const old = this.unlisten;
          this.unlisten = undefined;
          old?.().catch(() => {});
          reconnect();
        },
      );
      this.clear();
      this.feedUp = true;
    };
    const reconnect = () => {
      if (this.closed) return;
      this.retry = setTimeout(() => {
        subscribe().then(
          () => log.info('session feed back'),
          () => reconnect(),
        );
      }, RECONNECT_MS);
      this.retry.unref();
    };
    await subscribe();
    return async () => {
      this.closed = true;
      this.feedUp = false;
      clearTimeout(this.retry);
      await this.unlisten?.().catch(() => {});
    };
  }

  /** Whether the family is live, when this process knows it (no database, no await); else undefined. */
  knownLive(familyId: string, userId: number): boolean | undefined {
    const hit = this.feedUp ? this.entries.get(familyId) : undefined;
    return hit ? hit.live && hit.userId === userId : undefined;
  }

  /** True when the family still has an unrevoked, unexpired refresh token of this user. */
  async isLive(familyId: string, userId: number): Promise<boolean> {
    const known = this.knownLive(familyId, userId);
    if (known !== undefined) return known;
    const generation = this.generation;
    const live = await this.sessions.familyIsLive(familyId, userId);
    // A dead family never comes back; a live answer is kept only if nothing changed meanwhile.
    if (this.feedUp && (!live || generation === this.generation)) {
      if (this.entries.size >= this.maxEntries)
        this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(familyId, { userId, live });
    }
    return live;
  }

  forgetFamily(familyId: string) {
    this.generation += 1;
    const e = this.entries.get(familyId);
    if (e) this.entries.set(familyId, { ...e, live: false });
  }

  forgetUser(userId: number) {
    this.generation += 1;
    for (const [familyId, e] of this.entries) if (e.userId === userId) this.entries.delete(familyId);
    this.userChanged(userId);
  }

  private onMessage(payload: string) {
    if (payload.startsWith('f:')) this.forgetFamily(payload.slice(2));
    else if (payload.startsWith('u:') && Number.isInteger(Number(payload.slice(2))))
      this.forgetUser(Number(payload.slice(2)));
    else this.clear();
  }

  private clear() {
    this.generation += 1;
    this.entries.clear();
  }
}
