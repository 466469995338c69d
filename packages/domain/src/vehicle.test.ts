import { describe, expect, it } from 'vitest';
import { VehicleInput, VehicleUpdateBody, Vin } from './vehicle.js';

const car = {
  make: 'Dacia',
  model: 'Logan',
  year: 2019,
  fuelType: 'PETROL',
  registrationNumber: 'B-1-ABC',
  engineSize: 1.2,
  odometer: 1000,
};

describe('Vin', () => {
  it('trims and upper-cases a VIN; "" and null mean none', () => {
    expect(Vin.parse(' wvwzzz1jzxw000001 ')).toBe('WVWZZZ1JZXW000001');
    expect(Vin.parse('')).toBeNull();
    expect(Vin.parse('   ')).toBeNull();
    expect(Vin.parse(null)).toBeNull();
    expect(Vin.parse(undefined)).toBeUndefined();
  });

  it('refuses anything but 17 of A-Z (without I, O, Q) and 0-9, with one message', () => {
    for (const bad of [
      'WVWZZZ1JZXW00000',
      'WVWZZZ1JZXW0000011',
      'WVWZZZ1JZXW00000I',
      'WVWZZZ1JZXW00000o',
      'WVWZZZ1JZXW00000Q',
      'WVWZZZ1JZXW 00001',
    ]) {
      const result = Vin.safeParse(bad);
      expect(result.success, bad).toBe(false);
      expect(result.error?.issues.map((i) => i.message)).toEqual([
        'VIN must be 17 letters and digits, without I, O or Q.',
      ]);
    }
  });

  it('is optional in a vehicle: absent stays absent (an update then keeps the stored one)', () => {
    expect(VehicleInput.parse(car)).not.toHaveProperty('vin');
    expect(VehicleUpdateBody.parse({ ...car, version: 0 })).not.toHaveProperty('vin');
    expect(VehicleInput.parse({ ...car, vin: '' }).vin).toBeNull();
    expect(VehicleInput.safeParse({ ...car, vin: 'x' }).error?.issues[0]?.path).toEqual(['vin']);
  });
});
