import type { Insurance, Vehicle } from '@evdra/domain';

/** A vehicle as the API answers it (tests only). */
export function makeVehicle(overrides: Partial<Vehicle> = {}): Vehicle {
  return {
    id: 7,
    make: 'Dacia',
    model: 'Logan',
    year: 2019,
    fuelType: 'DIESEL',
    registrationNumber: 'B-123-ABC',
    vin: null,
    engineSize: 1.5,
    odometer: 120000,
    aiEvaluationConsent: true,
    aiScore: null,
    aiScoreReason: null,
    photoUrl: null,
    ownerId: 1,
    ownerUsername: 'alice',
    version: 3,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** An insurance policy as the API answers it (tests only). */
export function makeInsurance(overrides: Partial<Insurance> = {}): Insurance {
  return {
    id: 3,
    vehicleId: 7,
    provider: 'Allianz',
    policyNumber: 'RCA-1',
    coverageType: 'RCA',
    startDate: '2025-01-01',
    endDate: '2025-12-31',
    price: 350,
    reminderEnabled: true,
    ...overrides,
  };
}
