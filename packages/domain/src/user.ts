import { z } from 'zod';
import { Language, Role, UserStatus } from './enums.js';
import { Currency, UnitOfConsumption, UnitOfDistance, UnitOfVolume } from './money-schemas.js';
import { IdCursor, PageLimit } from './paging.js';
import { Country } from './renewals.js';

export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]+$/;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const Username = z
  .string()
  .trim()
  .min(USERNAME_MIN, `Username must be at least ${USERNAME_MIN} characters.`)
  .max(USERNAME_MAX, `Username must be at most ${USERNAME_MAX} characters.`)
  .regex(USERNAME_PATTERN, 'Username may contain only letters, digits, _ . and -.');
export const Email = z.string().trim().toLowerCase().pipe(z.email('Enter a valid email address.').max(254));
export const Password = z
  .string()
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters.`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters.`);

export const Id = z.coerce.number().int().positive();
export const IdParams = z.object({ id: Id });

export const VehicleSummary = z.object({ id: z.number().int(), make: z.string(), model: z.string() });

/** What the API says about a user: never a password hash. */
export const User = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  role: Role,
  status: UserStatus,
  gdprConsent: z.boolean(),
  language: Language,
  /** Renewal presets; follows the language until the user picks one. */
  country: Country,
  /** The currency the user pays in and reads totals in (ISO 4217). */
  currency: Currency,
  /** The units the user reads and types; the API's measures stay metric. */
  distanceUnit: UnitOfDistance,
  volumeUnit: UnitOfVolume,
  consumptionUnit: UnitOfConsumption,
  createdAt: z.string(),
  vehicles: z.array(VehicleSummary),
});
export type User = z.infer<typeof User>;

export const UpdateMeBody = z.object({
  username: Username,
  email: Email,
  language: Language.optional(),
  country: Country.optional(),
  /** Each left out keeps what the user has. */
  currency: Currency.optional(),
  distanceUnit: UnitOfDistance.optional(),
  volumeUnit: UnitOfVolume.optional(),
  consumptionUnit: UnitOfConsumption.optional(),
});
export type UpdateMeBody = z.infer<typeof UpdateMeBody>;

export const GdprConsentBody = z.object({ consent: z.boolean() });

/** An admin may leave status blank; blank means Active (spec §3). */
const StatusOrBlank = z
  .union([UserStatus, z.literal('')])
  .optional()
  .transform((s) => (s ? s : 'Active') as UserStatus);

export const AdminCreateUserBody = z.object({
  username: Username,
  email: Email,
  password: Password.optional(),
  role: Role.default('USER'),
  status: StatusOrBlank,
  gdprConsent: z.boolean().default(false),
  language: Language.default('en'),
});
export type AdminCreateUserBody = z.infer<typeof AdminCreateUserBody>;

export const AdminUpdateUserBody = z.object({
  username: Username,
  email: Email,
  password: z.union([Password, z.literal('')]).optional(),
  role: Role,
  status: StatusOrBlank,
  gdprConsent: z.boolean().optional(),
  language: Language.optional(),
});
export type AdminUpdateUserBody = z.infer<typeof AdminUpdateUserBody>;

/** GET /api/admin/users without `limit` (issue 54): at most this many users, the old answer below it. */
export const ADMIN_USERS_CAP = 10_000;
/** The largest page an admin's client may ask of the users list. */
export const ADMIN_USERS_PAGE_MAX = 500;
/**
 * The users list a page at a time: `limit` users after `cursor` (opaque; the last id of the page
 * before), by id. The answer stays a bare array; when more follow, the `X-Next-Cursor` header holds
 * the cursor of the next page and `Link` its URL (rel="next").
 */
export const AdminUsersQuery = z.object({
  q: z.string().trim().max(100).optional(),
  limit: PageLimit(ADMIN_USERS_PAGE_MAX).optional(),
  cursor: IdCursor.optional(),
});
export type AdminUsersQuery = z.infer<typeof AdminUsersQuery>;
