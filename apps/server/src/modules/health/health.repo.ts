import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

export class HealthRepo {
  constructor(private readonly db: Db) {}

  /** Resolves when the database answers a statement. */
  async ping(): Promise<void> {
    await this.db.execute(sql`select 1`);
  }
}
