// The named accounts of the scale set (issue 54). Login takes the username or the e-mail
// (LoginBody.username), so the usernames are the names; e-mails are <name>@scale.test.
export const PASSWORD = 'scale-bench-1';
export const ACCOUNTS = { admin: 'admin_scale', fleet: 'fleet_0001', driver: 'driver_000001' };
/** fleet_0001's car with 5,000 fill-ups, and its first car without records' special shape. */
export const BIG_CAR = 1;

/** Hashes the password once with the server's own hashing (argon2id, its options; run under tsx). */
export async function passwordHash() {
  const { hashPassword } = await import('../../src/modules/auth/passwords.ts');
  return hashPassword(PASSWORD);
}

/** Logs in; returns headers that carry the session like a browser (cookie + CSRF token). */
export async function login(base, username) {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`login ${username}: ${res.status} ${await res.text()}`);
  const { csrfToken } = await res.json();
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' };
}
