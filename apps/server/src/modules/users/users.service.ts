import type { AdminCreateUserBody, AdminUpdateUserBody, UpdateMeBody } from '@evdra/domain';
import { AppError, fieldError, notFound } from '../../lib/errors.js';
import { assertUsernameAndEmailFree, takenError } from './uniqueness.js';
import type { UserChanges, UserRow, UsersRepo } from './users.repo.js';

const lastAdmin = () =>
  new AppError(409, 'LAST_ADMIN', 'The last active administrator cannot be deleted, demoted or suspended.');

/** Profiles, consent and administration of accounts. */
export class UsersService {
  constructor(
    private readonly repo: UsersRepo,
    /** Password hashing (argon2id, from auth), given by the app so users does not import auth. */
    private readonly hashPassword: (password: string) => Promise<string>,
    /** Called after a committed change that vehicle lists show (an owner's name, a deletion). */
    private readonly changed: () => void = () => {},
  ) {}

  async get(id: number): Promise<UserRow> {
    const row = await this.repo.findById(id);
    if (!row) throw notFound('User');
    return row;
  }

  async updateMe(id: number, body: UpdateMeBody): Promise<UserRow> {
    await assertUsernameAndEmailFree(this.repo, body.username, body.email, id);
    const row = await this.save(id, { username: body.username, email: body.email, language: body.language });
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

  list(q?: string): Promise<UserRow[]> {
    return this.repo.list(q || undefined);
  }

  async create(body: AdminCreateUserBody): Promise<UserRow> {
    if (!body.password) {
      throw fieldError('VALIDATION_FAILED', 400, 'password', 'Password required for new users!');
    }
    await assertUsernameAndEmailFree(this.repo, body.username, body.email);
    const { password, ...rest } = body;
    try {
      return await this.repo.insert({ ...rest, passwordHash: await this.hashPassword(password) });
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
