import { type AppError, fieldError, UniqueViolation } from '../../lib/errors.js';
import type { UsersRepo } from './users.repo.js';

const usernameTaken = () => fieldError('USERNAME_TAKEN', 409, 'username', 'This username is already taken.');
const emailTaken = () => fieldError('EMAIL_TAKEN', 409, 'email', 'This email is already registered.');

/** 409 naming the field when another account (not `exceptId`) has this username or email. */
export async function assertUsernameAndEmailFree(
  repo: UsersRepo,
  username: string,
  email: string,
  exceptId?: number,
) {
  const taken = await repo.taken(username, email, exceptId);
  if (taken === 'username') throw usernameTaken();
  if (taken === 'email') throw emailTaken();
}

/** Maps a unique-index violation that raced past the check above to the same 409. */
export function takenError(err: unknown): AppError | undefined {
  if (!(err instanceof UniqueViolation)) return undefined;
  return err.constraint.includes('email') ? emailTaken() : usernameTaken();
}
