import type { VehicleDocument } from '@evdra/domain';
import { describe, expect, it } from 'vitest';
import { latestOfEachType, urlsToKeep } from './papers';

const doc = (o: Partial<VehicleDocument>): VehicleDocument => ({
  id: 1,
  vehicleId: 7,
  type: 'MTPL_INSURANCE',
  title: 'RCA',
  number: null,
  issuedOn: null,
  expiresOn: null,
  notes: '',
  private: true,
  pages: [],
  previewUrl: null,
  size: 0,
  renewalId: null,
  version: 0,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  ...o,
});
const page = (docId: number, n: number, contentType = 'image/jpeg') => ({
  page: n,
  name: `p${n}.jpg`,
  contentType,
  size: 10,
  url: `/api/vehicles/7/documents/${docId}/file${n === 1 ? '' : `?page=${n}`}`,
});

describe('the offline wallet keeps', () => {
  it("the latest document of each type: by expiry, then the newest; last year's RCA is left out", () => {
    const old = doc({ id: 1, expiresOn: '2026-01-09' });
    const current = doc({ id: 2, expiresOn: '2027-01-09' });
    const talon = doc({ id: 3, type: 'REGISTRATION' });
    const talonNewer = doc({ id: 4, type: 'REGISTRATION' });
    expect(
      latestOfEachType([talon, current, old, talonNewer])
        .map((d) => d.id)
        .sort(),
    ).toEqual([2, 4]);
  });

  it("the car's list, every page of those documents and their previews", () => {
    const rca = doc({
      id: 2,
      pages: [page(2, 1), page(2, 2)],
      previewUrl: '/api/vehicles/7/documents/2/file?preview=true',
    });
    const civ = doc({ id: 5, type: 'TECHNICAL_CARD', pages: [page(5, 1, 'application/pdf')] });
    expect(urlsToKeep(7, [rca, civ])).toEqual([
      '/api/vehicles/7/documents',
      '/api/vehicles/7/documents/2/file',
      '/api/vehicles/7/documents/2/file?page=2',
      '/api/vehicles/7/documents/2/file?preview=true',
      '/api/vehicles/7/documents/5/file',
    ]);
  });
});
