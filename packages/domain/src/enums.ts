import { z } from 'zod';
import { FUEL_TYPES } from './constants.js';

export const ROLES = ['USER', 'ADMIN'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

export const USER_STATUSES = ['Active', 'Suspended', 'Pending'] as const;
export const UserStatus = z.enum(USER_STATUSES);
export type UserStatus = z.infer<typeof UserStatus>;

export const LANGUAGES = ['en', 'ro', 'es'] as const;
export const Language = z.enum(LANGUAGES);
export type Language = z.infer<typeof Language>;
export const FALLBACK_LANGUAGE: Language = 'en';

export const FuelType = z.enum(FUEL_TYPES);
export type FuelType = z.infer<typeof FuelType>;
