import { randomBytes } from 'node:crypto';
import { type Language, notificationPath, renewalLabel } from '@evdra/domain';
import { notFound } from '../../lib/errors.js';
import type { CalendarRepo, DueItem } from './calendar.repo.js';
import { type CalendarEvent, calendar } from './ics.js';

/** 32 random bytes, base64url: 43 characters nobody guesses. */
const newToken = () => randomBytes(32).toString('base64url');

const TEXTS: Record<
  Language,
  {
    name: string;
    insurance: (provider: string) => string;
    revision: string;
    renewal: (label: string) => string;
    description: (what: string, car: string, date: string) => string;
    alarm: (what: string, car: string) => string;
  }
> = {
  en: {
    name: 'Evdra: due dates',
    insurance: (p) => `Insurance ends (${p})`,
    revision: 'Service due',
    renewal: (l) => `${l} expires`,
    description: (w, c, d) => `${w}: ${c}, on ${d}.`,
    alarm: (w, c) => `In a week: ${w}, ${c}`,
  },
  ro: {
    name: 'Evdra: termene',
    insurance: (p) => `Expiră asigurarea (${p})`,
    revision: 'Revizie scadentă',
    renewal: (l) => `Expiră ${l}`,
    description: (w, c, d) => `${w}: ${c}, pe ${d}.`,
    alarm: (w, c) => `Peste o săptămână: ${w}, ${c}`,
  },
  es: {
    name: 'Evdra: vencimientos',
    insurance: (p) => `Vence el seguro (${p})`,
    revision: 'Revisión prevista',
    renewal: (l) => `Vence ${l}`,
    description: (w, c, d) => `${w}: ${c}, el ${d}.`,
    alarm: (w, c) => `En una semana: ${w}, ${c}`,
  },
};

/**
 * The per-user calendar feed (RFC 5545): no cookie, the URL's long random token is the key; a reset
 * makes a new one and the old URL answers 404.
 */
export class CalendarService {
  constructor(
    private readonly repo: CalendarRepo,
    private readonly publicUrl: string,
    private readonly now: () => Date,
  ) {}

  /** The user's feed URL, made on first request. */
  async link(userId: number): Promise<{ url: string }> {
    const token = (await this.repo.tokenOf(userId)) ?? (await this.repo.setToken(userId, newToken(), false));
    return { url: this.url(token) };
  }

  /** A new URL; the old one stops working at once. */
  async reset(userId: number): Promise<{ url: string }> {
    return { url: this.url(await this.repo.setToken(userId, newToken(), true)) };
  }

  async feed(token: string): Promise<string> {
    const user = token.length >= 43 ? await this.repo.userByToken(token) : undefined;
    if (!user) throw notFound('Calendar');
    const t = TEXTS[user.language];
    const events = (await this.repo.dueItems(user.id)).map((d) => this.event(t, user.language, d));
    return calendar({ name: t.name, events, now: this.now() });
  }

  private event(t: (typeof TEXTS)[Language], lang: Language, d: DueItem): CalendarEvent {
    const car = `${d.make} ${d.model} (${d.registrationNumber})`;
    const what =
      d.kind === 'insurance'
        ? t.insurance(d.provider)
        : d.kind === 'revision'
          ? t.revision
          : t.renewal(renewalLabel(d.renewalType, lang));
    const type =
      d.kind === 'insurance'
        ? 'INSURANCE_REMINDER'
        : d.kind === 'revision'
          ? 'REVISION_REMINDER'
          : 'RENEWAL_REMINDER';
    return {
      // The service's UID follows the vehicle: a newer service moves the one event.
      uid: d.kind === 'revision' ? `service-${d.vehicleId}@evdra` : `${d.kind}-${d.id}@evdra`,
      date: d.date,
      summary: `${what}: ${d.make} ${d.model}`,
      description: t.description(what, car, d.date),
      url: `${this.publicUrl}${notificationPath({ type, vehicleId: d.vehicleId })}`,
      alarm: t.alarm(what, car),
    };
  }

  private url(token: string) {
    return `${this.publicUrl}/api/calendar/${token}.ics`;
  }
}
