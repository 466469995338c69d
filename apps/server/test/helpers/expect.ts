import { expect } from 'vitest';
import type { Res } from './client.js';

/** The answer is `{code, message, details?}` with this status and code. */
export function expectError(res: Res, status: number, code: string) {
  expect({ status: res.statusCode, body: res.data }).toMatchObject({
    status,
    body: { code, message: expect.any(String) },
  });
}

/** A 400 VALIDATION_FAILED whose details name `field`. */
export function expectInvalid(res: Res, field: string) {
  expectError(res, 400, 'VALIDATION_FAILED');
  const fields = (res.data.details as { field: string }[]).map((d) => d.field);
  expect(fields).toContain(field);
}

/** The raw Set-Cookie header for `name`. */
export function setCookie(res: Res, name: string): string | undefined {
  const raw = res.headers['set-cookie'];
  const all = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return all.find((c) => c.startsWith(`${name}=`));
}

/** How the API shows a newly registered USER: every field, and never a password. */
export function newUserView(user: { id: number }, account: { username: string; email: string }) {
  return {
    id: user.id,
    username: account.username,
    email: account.email,
    role: 'USER',
    status: 'Active',
    gdprConsent: true,
    language: 'en',
    country: 'GENERIC',
    // An English account's country is GENERIC: euros, km, litres, L/100 km.
    currency: 'EUR',
    distanceUnit: 'km',
    volumeUnit: 'L',
    consumptionUnit: 'L_100KM',
    createdAt: expect.any(String),
    vehicles: [],
  };
}
