// The native module loads on the first register or login, not at start-up.
const argon2 = () => import('@node-rs/argon2');

// ARCHITECTURE §4: argon2id, m=19456 KiB, t=2, p=1.
const OPTIONS = {
  algorithm: 2 /* Argon2id; a const enum in the typings */,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};

export const hashPassword = async (password: string) => (await argon2()).hash(password, OPTIONS);

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await (await argon2()).verify(hashed, password);
  } catch {
    return false;
  }
}

/** Verified against when the account does not exist, so timing does not reveal which usernames exist. */
let dummyHash: Promise<string> | undefined;
export const dummyPasswordHash = () => {
  dummyHash ??= hashPassword('not-a-real-password-0');
  return dummyHash;
};
