import { describe, expect, it } from 'vitest';
import { makeInsurance } from '../../test/fixtures';
import { reminderToggleEdit } from './reminderToggle';

const policy = { ...makeInsurance(), version: 4, pendingSync: true };

describe('reminder toggle queued offline', () => {
  it('becomes an edit that sets the flipped value on the whole record, based on the version shown', () => {
    const edit = reminderToggleEdit('insurance', policy);
    // The row keeps its vehicle when the edit is laid over it.
    expect(Object.keys(edit?.payload ?? {})).not.toContain('vehicleId');
    expect(edit).toEqual({
      targetId: 3,
      baseVersion: 4,
      payload: {
        provider: 'Allianz',
        policyNumber: 'RCA-1',
        coverageType: 'RCA',
        startDate: '2025-01-01',
        endDate: '2025-12-31',
        price: 350,
        reminderEnabled: false,
      },
    });
  });

  it('a revision turned back on keeps its fields; a row without a version is sent without one', () => {
    const revision = {
      id: 5,
      vehicleId: 7,
      date: '2025-02-10',
      km: 118000,
      price: 420,
      description: 'Oil',
      reminderEnabled: false,
      manualReminderDate: '2026-02-10',
    };
    expect(reminderToggleEdit('revision', revision)).toEqual({
      targetId: 5,
      baseVersion: null,
      payload: { date: '2025-02-10', km: 118000, price: 420, description: 'Oil', reminderEnabled: true },
    });
  });

  it('kinds without a reminder, or rows that are not valid records, are never queued', () => {
    expect(reminderToggleEdit('fuel', { id: 1, reminderEnabled: true })).toBeNull();
    expect(reminderToggleEdit('insurance', { id: 1, reminderEnabled: true, provider: '' })).toBeNull();
  });
});
