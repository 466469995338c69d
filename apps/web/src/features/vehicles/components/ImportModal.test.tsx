import type { ImportPreview } from '@evdra/domain';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderPage, storeUser } from '../../../test/utils';
import { ImportModal } from './ImportModal';

const vehicle = {
  id: 7,
  make: 'Dacia',
  model: 'Logan',
  year: 2019,
  fuelType: 'DIESEL',
  registrationNumber: 'B-01-ABC',
  vin: null,
  engineSize: 1.5,
  odometer: 1000,
  aiEvaluationConsent: false,
  aiScore: null,
  aiScoreReason: null,
  photoUrl: null,
  ownerId: 1,
  ownerUsername: 'alice',
  version: 0,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
} as const;

const preview: ImportPreview = {
  format: 'fuelio',
  counts: { fuel: 2, expenses: 1, revisions: 0, insurance: 0 },
  skipped: 1,
  duplicates: 0,
  warnings: [
    {
      row: 3,
      field: 'odometer',
      code: 'NO_ODOMETER',
      message: 'No odometer: no consumption for this fill-up.',
    },
  ],
  errors: [{ row: 9, code: 'NO_DATE', message: 'No readable date.' }],
  sample: {
    fuel: [
      {
        date: '2024-01-10',
        odometer: 50000,
        liters: 40,
        fuelPrice: 280,
        pricePerLiter: 7,
        fuelType: 'DIESEL',
        fullTank: true,
        missedPrevious: false,
      },
    ],
    expenses: [{ date: '2024-02-03', expenseType: 'Parking', amount: 12.5, description: 'Centre' }],
    revisions: [],
    insurance: [],
  },
  units: { distance: 'km', volume: 'l' },
  mapping: null,
};

/** A stand-in XMLHttpRequest: reports upload progress, then answers by URL. */
const sent: { url: string; headers: Record<string, string> }[] = [];
class FakeXhr {
  upload: { onprogress?: (e: ProgressEvent) => void; onload?: () => void } = {};
  onload?: () => void;
  onerror?: () => void;
  status = 0;
  responseText = '';
  withCredentials = false;
  private url = '';
  private headers: Record<string, string> = {};
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  send() {
    sent.push({ url: this.url, headers: this.headers });
    setTimeout(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded: 5, total: 10 } as ProgressEvent);
      this.upload.onload?.();
      this.status = 200;
      this.responseText = JSON.stringify(
        this.url.includes('/preview/')
          ? preview
          : { format: 'fuelio', counts: preview.counts, skipped: 1, duplicates: 0, errors: preview.errors },
      );
      this.onload?.();
    }, 0);
  }
}

afterEach(() => vi.unstubAllGlobals());

describe('ImportModal', () => {
  it('previews a dropped file with its counts, per-row warnings and sample, then imports it', async () => {
    storeUser();
    mockApi({});
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const { user } = renderPage(<ImportModal vehicle={vehicle} onClose={() => {}} />);
    const file = new File(['Data,Odo (km)\n'], 'fuelio.csv', { type: 'text/csv' });
    await user.upload(screen.getByLabelText('Choose a file'), file);

    expect(await screen.findByText('Format: Fuelio')).toBeInTheDocument();
    expect(screen.getByRole('row', { name: 'Fill-ups 2' })).toBeInTheDocument();
    // A table of what happens to which row, in row order, the field in the user's words.
    const issues = screen.getByRole('table', { name: 'Warnings and errors (2)' });
    const lines = within(issues).getAllByRole('row').slice(1);
    expect(lines.map((r) => r.textContent)).toEqual([
      '3OdometerWarning: No odometer: no consumption for this fill-up.',
      '9Error: No readable date.',
    ]);
    expect(screen.getByRole('cell', { name: '280.00' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Import 3 records' }));
    expect(await screen.findByText('Imported 3 records (0 already there were skipped).')).toBeInTheDocument();
    expect(sent.map((s) => s.url)).toEqual(['/api/import/preview/7', '/api/import/confirm/7']);
    expect(sent[1]?.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]?.headers['X-CSRF-Token']).toBe('csrf-1');
  }, 20_000);
});
