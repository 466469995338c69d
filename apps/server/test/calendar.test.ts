import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeText, fold } from '../src/modules/calendar/ics.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, type TestClient } from './helpers/client.js';

let t: TestApp;
let alice: TestClient;
let bob: TestClient;
let car: number;
let feedPath: string;

const vehicle = (reg: string) => ({
  make: 'Dacia',
  model: 'Duster',
  year: 2019,
  fuelType: 'DIESEL',
  registrationNumber: reg,
  engineSize: 1.5,
  odometer: 80_000,
});

beforeAll(async () => {
  t = await createTestApp();
  await registered(t.app, 'admin');
  const a = await registered(t.app, 'alice');
  alice = a.client;
  await alice.put('/api/users/me', { username: a.account.username, email: a.account.email, language: 'ro' });
  bob = (await registered(t.app, 'bob')).client;
  car = (await alice.post('/api/vehicles', vehicle('CJ-99-CAL'))).data.id;
  await alice.post('/api/insurance', {
    vehicleId: car,
    provider: 'Allianz; Țiriac, "Plus"',
    startDate: '2025-01-01',
    endDate: '2025-12-31',
    price: 300,
  });
  await alice.post('/api/revision', { vehicleId: car, date: '2025-03-10', km: 79_000, price: 200 });
  await alice.post(`/api/vehicles/${car}/renewals`, {
    type: 'ROVINIETA',
    validUntil: '2026-01-15',
    note: 'A long note that, with the summary, makes lines long enough to be folded across several lines.',
  });
  await bob.post('/api/vehicles', vehicle('B-00-BOB'));
});
afterAll(() => t.close());

const parse = (ics: string) => new ICAL.Component(ICAL.parse(ics));

describe('calendar feed', () => {
  it('gives each user a long random link, the same until reset', async () => {
    const res = await alice.get('/api/users/me/calendar');
    expect(res.statusCode).toBe(200);
    const url: string = res.data.url;
    expect(url).toMatch(/^http:\/\/evdra\.test\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    expect((await alice.get('/api/users/me/calendar')).data.url).toBe(url);
    expect((await bob.get('/api/users/me/calendar')).data.url).not.toBe(url);
    feedPath = new URL(url).pathname;
  });

  it('serves an RFC 5545 feed without a cookie: one VEVENT per due date, alarm a week before, in Romanian', async () => {
    const res = await t.app.inject({ method: 'GET', url: feedPath });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.body.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    for (const line of res.body.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const cal = parse(res.body);
    const events = cal.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));
    expect(events.map((e) => [e.summary, e.startDate.toString(), e.startDate.isDate])).toEqual([
      ['Expiră asigurarea (Allianz; Țiriac, "Plus"): Dacia Duster', '2025-12-31', true],
      ['Expiră Rovinietă: Dacia Duster', '2026-01-15', true],
      ['Revizie scadentă: Dacia Duster', '2026-03-10', true],
    ]);
    expect(events[0]?.description).toBe(
      'Expiră asigurarea (Allianz; Țiriac, "Plus"): Dacia Duster (CJ-99-CAL), pe 2025-12-31.',
    );
    for (const c of cal.getAllSubcomponents('vevent')) {
      const alarm = c.getFirstSubcomponent('valarm');
      expect(alarm?.getFirstPropertyValue('action')).toBe('DISPLAY');
      expect(String(alarm?.getFirstPropertyValue('trigger'))).toBe('-P7D');
      expect(c.getFirstPropertyValue('url')).toMatch(
        new RegExp(`^http://evdra.test/(insurance|revision|renewals)/${car}$`),
      );
    }
    const uids = events.map((e) => e.uid);
    expect(new Set(uids).size).toBe(3);
    // Stable: the same UIDs on the next fetch.
    const again = parse((await t.app.inject({ method: 'GET', url: feedPath })).body);
    expect(again.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c).uid)).toEqual(uids);
  });

  it('is 404 for a wrong token, and the old link is 404 after a reset', async () => {
    const wrong = await t.app.inject({ method: 'GET', url: `/api/calendar/${'A'.repeat(43)}.ics` });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await t.app.inject({ method: 'GET', url: '/api/calendar/short.ics' })).statusCode).toBe(404);
    // Never 400 nor 414 for a wrong token, however long.
    for (const length of [100, 101, 1500]) {
      const long = await t.app.inject({ method: 'GET', url: `/api/calendar/${'A'.repeat(length)}.ics` });
      expect(long.statusCode, `${length} characters`).toBe(404);
      expect(long.json()).toMatchObject({ code: 'NOT_FOUND', message: expect.any(String) });
    }
    const reset = await alice.post('/api/users/me/calendar/reset');
    expect(reset.statusCode).toBe(200);
    expect(new URL(reset.data.url).pathname).not.toBe(feedPath);
    expect((await t.app.inject({ method: 'GET', url: feedPath })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: new URL(reset.data.url).pathname })).statusCode).toBe(
      200,
    );
  });

  it("lists only the token's user's vehicles", async () => {
    const url = (await bob.get('/api/users/me/calendar')).data.url;
    const res = await t.app.inject({ method: 'GET', url: new URL(url).pathname });
    expect(parse(res.body).getAllSubcomponents('vevent')).toHaveLength(0);
    expect(res.body).not.toContain('Duster');
  });

  it("dates a service by its manual reminder date when set, else 12 months after it; one event per car's latest", async () => {
    const other = (await alice.post('/api/vehicles', vehicle('CJ-98-CAL'))).data.id;
    await alice.post('/api/revision', { vehicleId: other, date: '2025-01-05', km: 60_000, price: 90 });
    const latest = await alice.post('/api/revision', {
      vehicleId: other,
      date: '2025-02-01',
      km: 61_000,
      price: 100,
    });
    const manual = await alice.put(`/api/revision/${latest.data.id}/manual-reminder`, {
      reminderDate: '2025-08-15',
    });
    expect(manual.statusCode).toBe(200);
    const url = (await alice.get('/api/users/me/calendar')).data.url;
    const events = parse((await t.app.inject({ method: 'GET', url: new URL(url).pathname })).body)
      .getAllSubcomponents('vevent')
      .map((c) => new ICAL.Event(c));
    const services = events.filter((e) => e.summary.startsWith('Revizie scadentă'));
    expect(services.map((e) => [e.summary, e.startDate.toString()])).toEqual([
      ['Revizie scadentă: Dacia Duster', '2025-08-15'],
      ['Revizie scadentă: Dacia Duster', '2026-03-10'],
    ]);
    expect(services[0]?.uid).toBe(`service-${other}@evdra`);
  });

  it('needs a login for the link', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/users/me/calendar' })).statusCode).toBe(401);
  });
});

describe('iCalendar text', () => {
  it('escapes and folds per RFC 5545 without splitting a character', () => {
    expect(escapeText('a\\b;c,d\ne')).toBe('a\\\\b\\;c\\,d\\ne');
    const folded = fold(`SUMMARY:${'ă'.repeat(60)}`);
    const lines = folded.split('\r\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(Buffer.byteLength(l)).toBeLessThanOrEqual(75);
    expect(lines.map((l, i) => (i ? l.slice(1) : l)).join('')).toBe(`SUMMARY:${'ă'.repeat(60)}`);
  });
});
