import { AdminUpdateUserBody, InsuranceBody, LoginBody, Password, RegisterBody } from '@evdra/domain';
import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import es from '../../public/locales/es/translation.json';
import ro from '../../public/locales/ro/translation.json';
import { toNumber, translated } from './forms';

/** The translated message of each failing field. */
async function messages(schema: z.ZodType, values: unknown, lng = 'en', overrides?: Record<string, string>) {
  const t = i18n.getFixedT(lng);
  const result = await translated(schema as never, t, overrides).safeParseAsync(values);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

beforeAll(() => {
  i18n.addResourceBundle('ro', 'translation', ro);
  i18n.addResourceBundle('es', 'translation', es);
});

describe('translated zod messages', () => {
  it("uses a field's own text, else the generic one, in the user's language", async () => {
    const insurance = {
      vehicleId: 1,
      provider: ' ',
      policyNumber: 'x'.repeat(51),
      startDate: '2025-02-01',
      endDate: '2025-01-01',
      price: -1,
    };
    expect(await messages(InsuranceBody, insurance)).toEqual({
      provider: 'Provider is required.',
      policyNumber: 'At most 50 characters.',
      price: 'Must be 0 or more.',
      endDate: 'End date cannot be before the start date.',
    });
    expect(await messages(InsuranceBody, insurance, 'ro')).toMatchObject({
      provider: 'Asigurătorul este obligatoriu.',
      policyNumber: 'Cel mult 50 caractere.',
    });
    expect(await messages(LoginBody, { username: '', password: '' }, 'es')).toEqual({
      username: 'El nombre de usuario es obligatorio.',
      password: 'La contraseña es obligatoria.',
    });
  });

  it('explains cross-field rules once the fields are valid', async () => {
    const ok = {
      vehicleId: 1,
      provider: 'Allianz',
      startDate: '2025-02-01',
      endDate: '2025-01-01',
      price: 5,
    };
    expect(await messages(InsuranceBody, ok)).toEqual({
      endDate: 'End date cannot be before the start date.',
    });
    expect(await messages(InsuranceBody, ok, 'es')).toEqual({
      endDate: 'La fecha de fin no puede ser anterior a la de inicio.',
    });
  });

  it("keeps the spec's texts: email, GDPR consent, new user's password", async () => {
    const body = { username: 'alice', email: 'nope', password: 'secret-pass-1', gdprConsent: false };
    expect(await messages(RegisterBody, body)).toEqual({
      email: 'Please enter a valid email address.',
      gdprConsent: 'You must accept the GDPR agreement.',
    });
    const user = AdminUpdateUserBody.extend({ password: z.union([Password, z.literal('')]) }).refine(
      (v) => v.password !== '',
      { path: ['password'] },
    );
    const values = { username: 'bob', email: 'bob@example.com', password: '', role: 'USER', status: '' };
    expect(await messages(user, values, 'en', { 'password.required': 'forms.newUserPassword' })).toEqual({
      password: 'Password required for new users!',
    });
    // A value that fits no branch of a union is explained by its closest branch.
    expect(await messages(user, { ...values, password: 'short' })).toEqual({
      password: 'Password must be at least 8 characters.',
    });
  });

  it('reads typed numbers: empty is missing, a decimal comma is a point, junk is not a number', () => {
    expect(toNumber('')).toBeUndefined();
    expect(toNumber('4,5')).toBe(4.5);
    expect(toNumber('abc')).toBeNaN();
    expect(toNumber(7)).toBe(7);
  });
});
