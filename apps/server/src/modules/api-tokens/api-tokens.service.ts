import { createHash, randomBytes } from 'node:crypto';
import { API_TOKEN_PREFIX, type ApiToken, type ApiTokenBody, type ApiTokenCreated } from '@evdra/domain';
import { AppError, notFound } from '../../lib/errors.js';
import type { Principal } from '../../lib/session.js';
import type { ApiTokenRow, ApiTokensRepo } from './api-tokens.repo.js';

/** Last-used time and address are written at most this often per token (not on every request). */
const TOUCH_EVERY_MS = 60_000;

export const hashApiToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Whether a bearer credential looks like one of ours (anything else is not looked up). */
export const isApiToken = (token: string) =>
  token.startsWith(API_TOKEN_PREFIX) && token.length > API_TOKEN_PREFIX.length + 20 && token.length < 200;

/**
 * A token principal's session family: a fixed UUID per token (push subscriptions and the like keep
 * one), never a login's.
 */
const familyOf = (tokenId: number) => `00000000-0000-4000-8000-${tokenId.toString(16).padStart(12, '0')}`;

/** Personal API tokens (issue 53): made, listed and revoked with a cookie session; used as a bearer. */
export class ApiTokensService {
  constructor(
    private readonly repo: ApiTokensRepo,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Managing tokens takes a cookie session: a token cannot make or revoke tokens (403). */
  private manager(p: Principal) {
    if (p.apiToken) {
      throw new AppError(
        403,
        'FORBIDDEN',
        'API tokens are managed from a signed-in session, not with a token.',
      );
    }
    return p.userId;
  }

  async create(p: Principal, body: ApiTokenBody): Promise<ApiTokenCreated> {
    const userId = this.manager(p);
    // 32 random bytes (256 bits), base64url: nothing to guess, so a fast hash is the right one to keep.
    const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const row = await this.repo.insert({
      userId,
      name: body.name,
      scope: body.scope,
      tokenHash: hashApiToken(token),
      hint: token.slice(0, API_TOKEN_PREFIX.length + 4),
      expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
    });
    return {
      id: row.id,
      name: row.name,
      scope: row.scope,
      expiresAt: row.expiresAt?.toISOString() ?? null,
      token,
    };
  }

  async list(p: Principal): Promise<ApiToken[]> {
    return (await this.repo.list(this.manager(p))).map(present);
  }

  async revoke(p: Principal, id: number) {
    if (!(await this.repo.remove(this.manager(p), id))) throw notFound('API token');
  }

  /**
   * The principal a bearer token acts as: null when it is unknown (or revoked), expired, or its user
   * is not active. Notes when and from where it was used.
   */
  async authenticate(token: string, ip: string): Promise<Principal | null> {
    if (!isApiToken(token)) return null;
    const row = await this.repo.findByHash(hashApiToken(token));
    const now = this.now();
    if (row?.status !== 'Active') return null;
    if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return null;
    const stale = !row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= TOUCH_EVERY_MS;
    if (stale || row.lastUsedIp !== ip) await this.repo.used(row.id, now, ip);
    return {
      userId: row.userId,
      role: row.role,
      familyId: familyOf(row.id),
      apiToken: { id: row.id, scope: row.scope },
    };
  }
}

const present = (r: ApiTokenRow): ApiToken => ({
  id: r.id,
  name: r.name,
  scope: r.scope,
  hint: r.hint,
  expiresAt: r.expiresAt?.toISOString() ?? null,
  lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  lastUsedIp: r.lastUsedIp,
  createdAt: r.createdAt.toISOString(),
});
