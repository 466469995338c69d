import type { Language, MoneyAndUnits, Role, User } from '@evdra/domain';
import { useSyncExternalStore } from 'react';
import { forgetPapersShell } from './offline/papers-shell';

/** Local storage keys (spec §3). */
export const STORAGE_KEYS = {
  user: 'user',
  token: 'token',
  language: 'language',
  darkMode: 'darkMode',
} as const;

/**
 * What the browser keeps about the logged-in user under `user`. `offlineLogin` is the spec's
 * "offline login allowed" flag (§3, §4): 'true' after every successful online login.
 */
export interface StoredUser {
  id: number;
  username: string;
  email: string;
  role: Role;
  language: Language;
  offlineLogin: 'true' | 'false';
  /** The currency and units the user reads and types (absent: EUR, km, L, L/100 km; lib/units.ts). */
  currency?: MoneyAndUnits['currency'];
  distanceUnit?: MoneyAndUnits['distanceUnit'];
  volumeUnit?: MoneyAndUnits['volumeUnit'];
  consumptionUnit?: MoneyAndUnits['consumptionUnit'];
}

const CHANGE_EVENT = 'evdra:session';

function readRaw(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEYS.user);
  } catch {
    return null;
  }
}

let cachedRaw: string | null = null;
let cachedUser: StoredUser | null = null;

/** The stored user record, or null when nobody is logged in (or the record is unreadable). */
export function getStoredUser(): StoredUser | null {
  const raw = readRaw();
  if (raw === cachedRaw) return cachedUser;
  cachedRaw = raw;
  cachedUser = null;
  if (raw) {
    try {
      const parsed = JSON.parse(raw) as Partial<StoredUser> | null;
      if (parsed && typeof parsed === 'object' && typeof parsed.username === 'string') {
        cachedUser = parsed as StoredUser;
      }
    } catch {
      cachedUser = null;
    }
  }
  return cachedUser;
}

export function getToken(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEYS.token);
  } catch {
    return null;
  }
}

export function setToken(token: string): void {
  localStorage.setItem(STORAGE_KEYS.token, token);
}

function notify(): void {
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

/** The currency and unit fields an API user carries (none from a server that predates them). */
function moneyAndUnitsOfUser(user: object): Partial<MoneyAndUnits> {
  const u = user as Partial<MoneyAndUnits>;
  const fields: Partial<MoneyAndUnits> = {};
  if (u.currency !== undefined) fields.currency = u.currency;
  if (u.distanceUnit !== undefined) fields.distanceUnit = u.distanceUnit;
  if (u.volumeUnit !== undefined) fields.volumeUnit = u.volumeUnit;
  if (u.consumptionUnit !== undefined) fields.consumptionUnit = u.consumptionUnit;
  return fields;
}

/** Keeps a freshly fetched user's currency and units beside the session (settings, another device). */
export function storeMoneyAndUnits(user: object): void {
  const fields = moneyAndUnitsOfUser(user);
  const current = getStoredUser();
  if (!current || Object.entries(fields).every(([k, v]) => current[k as keyof StoredUser] === v)) return;
  updateStoredUser(fields);
}

/** Stores the session after a successful online login or registration. */
export function storeSession(user: User, csrfToken: string): StoredUser {
  const stored: StoredUser = {
    id: user.id,
    username: user.username,
    email: user.email,
    role: user.role,
    language: user.language,
    offlineLogin: 'true',
    ...moneyAndUnitsOfUser(user),
  };
  localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(stored));
  setToken(csrfToken);
  notify();
  return stored;
}

/** Updates fields of the stored user (e.g. after saving settings). No-op when logged out. */
export function updateStoredUser(patch: Partial<Omit<StoredUser, 'offlineLogin'>>): void {
  const current = getStoredUser();
  if (!current) return;
  localStorage.setItem(STORAGE_KEYS.user, JSON.stringify({ ...current, ...patch }));
  notify();
}

/** Forgets the user and the CSRF token (logout, expired session). */
export function clearSession(): void {
  localStorage.removeItem(STORAGE_KEYS.user);
  localStorage.removeItem(STORAGE_KEYS.token);
  // The offline wallet's papers (lib/offline/papers.ts) never outlive the session on the device.
  if (typeof caches !== 'undefined') void caches.delete('evdra-papers').catch(() => false);
  forgetPapersShell();
  notify();
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener(CHANGE_EVENT, onChange);
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(CHANGE_EVENT, onChange);
    window.removeEventListener('storage', onChange);
  };
}

/** The stored user, re-rendering when it changes (in this tab or another). */
export function useStoredUser(): StoredUser | null {
  // A server render reads its stored user as the browser would (ssr.tsx gives it the request's).
  return useSyncExternalStore(subscribe, getStoredUser, getStoredUser);
}
