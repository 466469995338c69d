/**
 * The weakest kind × language cells of issue 55 §3, on the exact strings the issue names and as the
 * OCR reads them off tilted, badly lit photos: English policy numbers in slashes or groups, Romanian
 * premium labels, a fuel slip's "47,85 L x 7,61" line, a service invoice's "KM: 76.320".
 * Pure functions: no image, no database.
 */
import { describe, expect, it } from 'vitest';
import { joinThousands } from '../src/ocr/fields/odometer.js';
import { policyNumber } from '../src/ocr/fields/policy-number.js';
import { extractFuel } from '../src/ocr/kinds/fuel.js';
import { extractInsurance } from '../src/ocr/kinds/insurance.js';
import { extractRevision } from '../src/ocr/kinds/revision.js';
import { toLines } from '../src/ocr/text/lines.js';

const lines = (text: string) => toLines(text.trim());
const norm = (text: string) => toLines(text)[0]?.norm ?? '';

describe('English policy numbers in slashes or in groups, not a stray digit group', () => {
  it.each([
    ['Policy number: AXA/MT/25/0048217', 'AXA/MT/25/0048217'],
    ['Policy No. MPC 3117 9042', 'MPC 3117 9042'],
    // The OCR spaces the slashes out, or joins the groups.
    ['Policy No. AXA / MT / 25 / 0048217', 'AXA/MT/25/0048217'],
    ['Policy No. AXA/MT/25/ 0048217', 'AXA/MT/25/0048217'],
    ['Policy ref: MPC 31179042', 'MPC 31179042'],
    // The next column (three spaces or more) is not part of it.
    ['Policy ref: MPC 3117 9042   Date of issue: 03/02/2025', 'MPC 3117 9042'],
  ])('%s', (text, want) => {
    expect(policyNumber(norm(text))).toBe(want);
  });

  it('takes the grouped number on a schedule, not the customer-service phone number', () => {
    const r = extractInsurance(
      lines(`
ADMIRAL
Customer services 0345 512 0000
MOTOR INSURANCE POLICY SCHEDULE
Policy No. MPC 3117 9042
Annual premium £634.20`),
    );
    expect(r.fields.policyNumber).toBe('MPC 3117 9042');
    expect(r.fields.price).toBe(634.2);
  });
});

describe('the odometer on a service invoice: "KM: 76.320" is 76,320 km, not 76', () => {
  it.each([
    ['KM: 76.320', 76320],
    // The thousands point read as a space, or as a point and a space.
    ['KM: 76 320', 76320],
    ['KM 76. 320', 76320],
    ['Nr. înmatriculare: B 729 XYZ   KM: 76 320', 76320],
  ])('%s', (text, km) => {
    expect(extractRevision(lines(`AUTO SERVICE DACIA SRL\n${text}\nTOTAL 1.234,00 LEI`)).fields.km).toBe(km);
  });

  it('joins only groups of three digits', () => {
    expect(joinThousands('KM: 76 320')).toBe('KM: 76320');
    expect(joinThousands('Km 12 345 678')).toBe('Km 12345678');
    expect(joinThousands('Pompa 4 12,50')).toBe('Pompa 4 12,50');
  });
});

describe('a fuel slip\'s "47,85 L x 7,61" line', () => {
  it('is 47.85 litres at 7.61, whose product is the total', () => {
    const r = extractFuel(
      lines('OMV PETROM MARKETING SRL\n47,85 L x 7,61\nMOTORINA 364,14 A\nTOTAL 364,14 LEI'),
    );
    expect(r.fields).toMatchObject({ liters: 47.85, pricePerLiter: 7.61, fuelPrice: 364.14 });
  });
});
