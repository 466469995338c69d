import {
  ADMIN_USERS_CAP,
  type AdminCreateUserBody,
  type AdminUpdateUserBody,
  type AdminUsersQuery,
  countryOfLanguage,
  type Language,
  type MoneyAndUnits,
  moneyAndUnitsForCountry,
  type UpdateMeBody,
  type User,
} from '@evdra/domain';
import type { Executor } from '../../db/client.js';
import { AppError, fieldError, notFound } from '../../lib/errors.js';
import { presentUser } from './present.js';
import { assertUsernameAndEmailFree, takenError } from './uniqueness.js';
import type { AuthState, UserChanges, UserRow, UsersRepo } from './users.repo.js';

export type { AuthState, UserRow };

const lastAdmin = () =>
  new AppError(409, 'LAST_ADMIN', 'The last active administrator cannot be deleted, demoted or suspended.');

/**
 * A new account's currency and units: its country's (RO → RON, km, L, L/100 km; …). A new account's
 * country follows its language until the user picks one, so the language decides.
 */
const newAccountMoneyAndUnits = (language: Language): MoneyAndUnits =>
  moneyAndUnitsForCountry(countryOfLanguage(language));

/** Profiles, consent and administration of accounts; the accounts the auth module logs in. */
export class UsersService {
  constructor(
    private readonly repo: UsersRepo,
    /** Password hashing (argon2id, from auth), given by the app so users does not import auth. */
    private readonly hashPassword: (password: string) => Promise<string>,
    /** Called after a committed change that vehicle lists show (an owner's name, a deletion). */
    private readonly changed: () => void = () => {},
  ) {}

  /** Runs `fn` in one transaction, with this service on it (`tx` for another module's repo to join). */
  transaction<T>(fn: (users: UsersService, tx: Executor) => Promise<T>): Promise<T> {
    return this.repo.transaction((repo, tx) =>
      fn(new UsersService(repo, this.hashPassword, this.changed), tx),
    );
  }

  /** The API view of users: never the password hash; with their vehicles. */
  present(row: UserRow): Promise<User> {
    return presentUser(this.repo, row);
  }

  /** The caller's own view (`/me`): the user and their vehicles as User JSON text, in one statement. */
  meJson(id: number): Promise<string | undefined> {
    return this.repo.findJson(id);
  }

  findById(id: number): Promise<UserRow | undefined> {
    return this.repo.findById(id);
  }

  /** By username (ignoring case) or by email. */
  findByLogin(login: string): Promise<UserRow | undefined> {
    return this.repo.findByLogin(login);
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.repo.findByEmail(email);
  }

  /** What each authenticated request checks about its user (cached per process). */
  authState(id: number): Promise<AuthState | undefined> {
    return this.repo.authState(id);
  }

  /** authState when this process has it cached (no database, no await), else undefined. */
  knownAuthState(id: number): { state: AuthState | undefined } | undefined {
    return this.repo.knownAuthState(id);
  }

  /** A self-registered, active account; the very first one becomes ADMIN. 409 naming a taken field. */
  async register(body: {
    username: string;
    email: string;
    password: string;
    language: Language;
  }): Promise<UserRow> {
    await assertUsernameAndEmailFree(this.repo, body.username, body.email);
    const passwordHash = await this.hashPassword(body.password);
    try {
      return await this.repo.insertFirstAsAdmin({
        username: body.username,
        email: body.email,
        passwordHash,
        status: 'Active',
        gdprConsent: true,
        language: body.language,
        ...newAccountMoneyAndUnits(body.language),
      });
    } catch (err) {
      throw takenError(err) ?? err;
    }
  }

  /** Stores a new password hash and moves the session epoch, so every access token of the user dies. */
  async replacePasswordHash(id: number, passwordHash: string): Promise<void> {
    await this.repo.update(id, { passwordHash, bumpEpoch: true });
  }

  async get(id: number): Promise<UserRow> {
    const row = await this.repo.findById(id);
    if (!row) throw notFound('User');
    return row;
  }

  /**
   * `viaToken`: the request came with an API token. A token may change settings but not the e-mail:
   * that is where a password reset goes, so a leaked token would otherwise take the whole account.
   */
  async updateMe(id: number, body: UpdateMeBody, viaToken = false): Promise<UserRow> {
    if (viaToken && (await this.get(id)).email.toLowerCase() !== body.email.toLowerCase()) {
      throw new AppError(
        403,
        'FORBIDDEN',
        "An API token cannot change the account's e-mail: sign in to change it.",
      );
    }
    await assertUsernameAndEmailFree(this.repo, body.username, body.email, id);
    const row = await this.save(id, {
      username: body.username,
      email: body.email,
      language: body.language,
      country: body.country,
      currency: body.currency,
      distanceUnit: body.distanceUnit,
      volumeUnit: body.volumeUnit,
      consumptionUnit: body.consumptionUnit,
    });
    this.changed();
    return row;
  }

  /** Consent goes from false to true only. */
  async setConsent(id: number, consent: boolean): Promise<UserRow> {
    const row = await this.get(id);
    if (consent === row.gdprConsent) return row;
    if (!consent) {
      throw fieldError('CONSENT_IRREVOCABLE', 400, 'consent', 'Consent once given cannot be withdrawn here.');
    }
    return this.save(id, { gdprConsent: true });
  }

  /** Every user (those matching q, when given) with their vehicles, as User[] JSON text. */
  /** A page of the users list; without `limit`, the first ADMIN_USERS_CAP (issue 54). `next`: the next page's cursor. */
  async pageJson(query: AdminUsersQuery): Promise<{ json: string; next?: string }> {
    const after = query.cursor ? Number(query.cursor) : 0;
    const page = await this.repo.pageJson(query.q || undefined, after, query.limit ?? ADMIN_USERS_CAP);
    return { json: page.json, ...(page.next ? { next: String(page.next) } : {}) };
  }

  async create(body: AdminCreateUserBody): Promise<UserRow> {
    if (!body.password) {
      throw fieldError('VALIDATION_FAILED', 400, 'password', 'Password required for new users!');
    }
    await assertUsernameAndEmailFree(this.repo, body.username, body.email);
    const { password, ...rest } = body;
    try {
      return await this.repo.insert({
        ...rest,
        ...newAccountMoneyAndUnits(rest.language),
        passwordHash: await this.hashPassword(password),
      });
    } catch (err) {
      throw takenError(err) ?? err;
    }
  }

  async update(id: number, body: AdminUpdateUserBody): Promise<UserRow> {
    const current = await this.get(id);
    await assertUsernameAndEmailFree(this.repo, body.username, body.email, id);
    const { password, ...fields } = body;
    const changes: UserChanges & { bumpEpoch?: boolean } = { ...fields };
    if (password)
      Object.assign(changes, { passwordHash: await this.hashPassword(password), bumpEpoch: true });
    const stopsBeingActiveAdmin =
      isActiveAdmin(current) && (changes.role !== 'ADMIN' || changes.status !== 'Active');
    if (!stopsBeingActiveAdmin) return this.save(id, changes).finally(this.changed);
    const result = await this.repo.withOtherActiveAdmin(id, (repo) => repo.update(id, changes));
    this.changed();
    if (result === false) throw lastAdmin();
    if (!result) throw notFound('User');
    return result;
  }

  async delete(id: number): Promise<void> {
    const current = await this.get(id);
    if (!isActiveAdmin(current)) {
      if (!(await this.repo.delete(id))) throw notFound('User');
      this.changed();
      return;
    }
    const result = await this.repo.withOtherActiveAdmin(id, (repo) => repo.delete(id));
    this.changed();
    if (result === false) throw lastAdmin();
  }

  private async save(id: number, changes: UserChanges & { bumpEpoch?: boolean }): Promise<UserRow> {
    try {
      const row = await this.repo.update(id, changes);
      if (!row) throw notFound('User');
      return row;
    } catch (err) {
      throw takenError(err) ?? err;
    }
  }
}

const isActiveAdmin = (u: UserRow) => u.role === 'ADMIN' && u.status === 'Active';
