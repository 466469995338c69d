import type { ChatMessage, Language } from '@evdra/domain';
import { and, desc, eq, notInArray, sql } from 'drizzle-orm';
import type { ChatContext } from '../../ai/provider.js';
import type { Db } from '../../db/client.js';
import { chatMessages, users } from '../../db/schema.js';
import { type NamedStatement, namedStatement } from '../../db/statement.js';
import { VersionedCache } from '../../lib/versioned-cache.js';

/** Bytes of kept conversations (200 messages of a few KB each at most per user). */
const HISTORIES_CACHE_BYTES = 16_000_000;

/** The virtual mechanic's conversations, one per user. */
export class ChatRepo {
  constructor(private readonly db: Db) {}

  /**
   * The conversation as the API's ChatMessage array (oldest first), written by the database (long
   * answers cost no row mapping nor escaping in JS), as UTF-8 bytes. It is kept per user at the
   * conversation's version (its newest message id and its length, read fresh on every call, from any
   * process): while it holds, a read is one index lookup and the kept bytes go out unencoded.
   */
  async historyJson(userId: number): Promise<Buffer> {
    this.versionStatement ??= namedStatement<{ version: string }>(
      this.db,
      'chat_history_version',
      sql`select coalesce(max(${chatMessages.id}), 0) || '|' || count(*) as version
          from ${chatMessages} where ${chatMessages.userId} = ${sql.placeholder('userId')}`,
    );
    const [row] = await this.versionStatement({ userId });
    const version = row?.version ?? '0|0';
    const kept = await this.histories.through(String(userId), version, async () =>
      Buffer.from(await this.historyText(userId)),
    );
    return kept ?? Buffer.from('[]');
  }
  private versionStatement?: NamedStatement<{ version: string }>;
  private readonly histories = new VersionedCache<Buffer, string>(HISTORIES_CACHE_BYTES, (b) => b.length);

  /** Oldest first: the same statement as the route's, read back for the mechanic's context. */
  async history(userId: number): Promise<ChatMessage[]> {
    return JSON.parse(await this.historyText(userId)) as ChatMessage[];
  }

  private async historyText(userId: number): Promise<string> {
    this.historyStatement ??= namedStatement<{ json: string }>(
      this.db,
      'chat_history_json',
      sql`select coalesce(json_agg(json_build_object('role', ${chatMessages.role}, 'content', ${chatMessages.content})
            order by ${chatMessages.id}), '[]')::text as json
          from ${chatMessages} where ${chatMessages.userId} = ${sql.placeholder('userId')}`,
    );
    const [row] = await this.historyStatement({ userId });
    return row?.json ?? '[]';
  }
  private historyStatement?: NamedStatement<{ json: string }>;

  /** What the latest AI answer was about. */
  async lastContext(userId: number): Promise<ChatContext | undefined> {
    const [row] = await this.db
      .select({ context: chatMessages.context })
      .from(chatMessages)
      .where(and(eq(chatMessages.userId, userId), eq(chatMessages.role, 'ai')))
      .orderBy(desc(chatMessages.id))
      .limit(1);
    return (row?.context as ChatContext | null) ?? undefined;
  }

  /** Appends a question and its answer, then keeps only the newest `keep` messages of the user. */
  async append(userId: number, prompt: string, answer: string, context: ChatContext, keep: number) {
    await this.db.transaction(async (tx) => {
      await tx.insert(chatMessages).values([
        { userId, role: 'user', content: prompt },
        { userId, role: 'ai', content: answer, context },
      ]);
      const newest = tx
        .select({ id: chatMessages.id })
        .from(chatMessages)
        .where(eq(chatMessages.userId, userId))
        .orderBy(desc(chatMessages.id))
        .limit(keep);
      await tx
        .delete(chatMessages)
        .where(and(eq(chatMessages.userId, userId), notInArray(chatMessages.id, newest)));
    });
  }

  async clear(userId: number) {
    await this.db.delete(chatMessages).where(eq(chatMessages.userId, userId));
  }

  /** The user's saved language; read beside every AI answer, so named and planned once. */
  async language(userId: number): Promise<Language | undefined> {
    this.languageStatement ??= this.prepareLanguage();
    const [row] = await this.languageStatement({ userId });
    return row?.language;
  }
  private languageStatement?: NamedStatement<{ language: Language }>;
  private prepareLanguage() {
    return namedStatement<{ language: Language }>(
      this.db,
      'user_language',
      this.db
        .select({ language: sql`${users.language}`.as('language') })
        .from(users)
        .where(eq(users.id, sql.placeholder('userId'))),
    );
  }
}
