import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EcbFeedError, parseEcbFeed } from '../src/modules/fx/ecb-feed.js';
import { nextDailyFetch } from '../src/modules/fx/fx.job.js';

const fixture = readFileSync(new URL('./fixtures/fx/eurofxref-hist-excerpt.xml', import.meta.url), 'utf8');

const envelope = (cubes: string) => `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
	<gesmes:subject>Reference rates</gesmes:subject>
	<gesmes:Sender><gesmes:name>European Central Bank</gesmes:name></gesmes:Sender>
	<Cube>${cubes}</Cube>
</gesmes:Envelope>`;

describe('parseEcbFeed: the ECB’s reference-rate XML', () => {
  it('reads every day and currency of a history file (newest day first)', () => {
    const { rates, skipped } = parseEcbFeed(fixture);
    expect(skipped).toBe(0);
    expect(rates).toHaveLength(5 * 12);
    expect(new Set(rates.map((r) => r.date))).toEqual(
      new Set(['2024-04-02', '2024-03-28', '2024-03-11', '2024-03-08', '2024-03-07']),
    );
    expect(rates).toContainEqual({ date: '2024-03-08', currency: 'HUF', rate: 393.15 });
    expect(rates).toContainEqual({ date: '2024-03-08', currency: 'RON', rate: 4.9699 });
    expect(rates).toContainEqual({ date: '2024-04-02', currency: 'GBP', rate: 0.8542 });
    // Weekends and Easter's holidays are simply absent.
    expect(rates.some((r) => r.date === '2024-03-09' || r.date === '2024-03-29')).toBe(false);
  });

  it('reads the daily file, double quotes and a namespace prefix on Cube alike', () => {
    const daily = envelope(`
      <Cube time="2024-03-08"><Cube currency="USD" rate="1.0932"/><ecb:Cube currency='RON' rate='4.9699' /></Cube>`);
    expect(parseEcbFeed(daily).rates).toEqual([
      { date: '2024-03-08', currency: 'USD', rate: 1.0932 },
      { date: '2024-03-08', currency: 'RON', rate: 4.9699 },
    ]);
  });

  it('skips (and counts) entries it cannot trust, keeping the rest', () => {
    const xml = envelope(`
      <Cube currency='USD' rate='1.09'/>
      <Cube time='2024-03-08'>
        <Cube currency='USD' rate='1.0932'/>
        <Cube currency='usd' rate='1.0932'/>
        <Cube currency='RON' rate='-4.97'/>
        <Cube currency='HUF' rate='0'/>
        <Cube currency='PLN' rate='4,2995'/>
        <Cube currency='CHF'/>
      </Cube>
      <Cube time='2024-02-30'><Cube currency='GBP' rate='0.85'/></Cube>
      <!-- <Cube time='2024-03-07'><Cube currency='JPY' rate='161.27'/></Cube> -->`);
    expect(parseEcbFeed(xml)).toEqual({
      rates: [{ date: '2024-03-08', currency: 'USD', rate: 1.0932 }],
      skipped: 7,
    });
  });

  it('refuses what is not a rate file: an HTML page, an empty envelope', () => {
    expect(() => parseEcbFeed('<!DOCTYPE html><html><body>Service unavailable</body></html>')).toThrow(
      EcbFeedError,
    );
    expect(() => parseEcbFeed(envelope(''))).toThrow(/no rates/);
    expect(() => parseEcbFeed('')).toThrow(EcbFeedError);
  });
});

describe('the daily fetch time', () => {
  it('is 16:30 UTC, after the ECB publishes: today if still ahead, else tomorrow', () => {
    expect(nextDailyFetch(new Date('2024-03-08T09:00:00Z')).toISOString()).toBe('2024-03-08T16:30:00.000Z');
    expect(nextDailyFetch(new Date('2024-03-08T16:30:00Z')).toISOString()).toBe('2024-03-09T16:30:00.000Z');
    expect(nextDailyFetch(new Date('2024-12-31T23:59:00Z')).toISOString()).toBe('2025-01-01T16:30:00.000Z');
  });
});
