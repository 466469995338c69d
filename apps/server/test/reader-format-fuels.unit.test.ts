import { describe, expect, it } from 'vitest';
import { readerFormat } from '../src/lib/reader-format.js';

// Issue 51: CNG is bought in kg and electricity in kWh whatever the reader's volume unit; only the
// liquid fuels (petrol, diesel, LPG) follow it.
describe('server texts’ measures per fuel', () => {
  const gallons = readerFormat('en', 'USD', {
    distanceUnit: 'mi',
    volumeUnit: 'USGAL',
    consumptionUnit: 'MPG_US',
  });
  it('keeps CNG in kg and kg/100 km, and a price per kg, for a reader in gallons', () => {
    expect(gallons.quantity(12.5, 'CNG')).toBe('12.50 kg');
    expect(gallons.quantitySign('CNG')).toBe('kg');
    expect(gallons.consumption(3.72, 'CNG')).toBe('3.72 kg/100 km');
    expect(gallons.pricePerQuantity(1.35, 'CNG')).toBe('$1.350');
  });
  it('still turns LPG litres into the reader’s gallons', () => {
    expect(gallons.quantitySign('GPL')).toBe('gal');
    expect(gallons.quantity(37.85, 'GPL')).toBe('10.00 gal');
  });
});
