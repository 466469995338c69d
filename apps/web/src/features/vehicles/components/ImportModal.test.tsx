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
  unitsGuess: { distance: 'km', volume: 'l', reason: 'file' },
  currency: 'EUR',
  currencyGuess: { reason: 'file', found: ['EUR'], currency: 'EUR', unstated: 0 },
  mapping: null,
};

/** A LubeLogger gas log of a car driven in km whose costs show $ (a default en-US install). */
const lubeFill = (odometer: number, liters: number) => ({
  date: '2024-03-04',
  odometer,
  liters,
  fuelPrice: 297.5,
  pricePerLiter: null,
  fuelType: 'PETROL' as const,
  fullTank: true,
  missedPrevious: false,
});
const KM_PER_MI = 1.609344;
const L_PER_USGAL = 3.785411784;
/** What the server answers for the units sent: 152,000 and 42.5 in the file, converted as chosen. */
const lubePreview = (units: { distance: 'km' | 'mi'; volume: 'l' | 'usgal' | 'impgal' }): ImportPreview => ({
  ...preview,
  format: 'lubelogger',
  counts: { fuel: 1, expenses: 0, revisions: 0, insurance: 0 },
  skipped: 0,
  errors: [],
  warnings:
    units.distance === 'mi'
      ? [
          {
            row: 1,
            field: 'units',
            code: 'DOLLAR_UNITS',
            message: 'Costs are in $: distances read as miles.',
          },
        ]
      : [],
  sample: {
    ...preview.sample,
    expenses: [],
    fuel: [
      lubeFill(
        Math.round(152000 * (units.distance === 'mi' ? KM_PER_MI : 1)),
        Math.round(42.5 * (units.volume === 'usgal' ? L_PER_USGAL : 1) * 100) / 100,
      ),
    ],
  },
  units,
  unitsGuess: { distance: 'mi', volume: 'usgal', reason: 'currency' },
});

/** A stand-in XMLHttpRequest: reports upload progress, then answers by URL (`answer` for previews). */
const sent: { url: string; headers: Record<string, string>; mapping: unknown }[] = [];
let answer: (
  mapping: { units?: ImportPreview['units']; currency?: ImportPreview['currency'] } | undefined,
) => ImportPreview = () => preview;
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
  send(form: FormData) {
    const raw = form.get('mapping');
    const mapping = typeof raw === 'string' ? JSON.parse(raw) : undefined;
    sent.push({ url: this.url, headers: this.headers, mapping });
    setTimeout(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded: 5, total: 10 } as ProgressEvent);
      this.upload.onload?.();
      this.status = 200;
      const shown = answer(mapping);
      this.responseText = JSON.stringify(
        this.url.includes('/preview/')
          ? shown
          : { format: shown.format, counts: shown.counts, skipped: 1, duplicates: 0, errors: shown.errors },
      );
      this.onload?.();
    }, 0);
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  sent.length = 0;
  answer = () => preview;
});

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
    expect(screen.getByRole('cell', { name: '€280.00' })).toBeInTheDocument();
    // The file names its currency: said, and nothing to pick.
    expect(screen.getByText('Amounts in Euro (€), as the file says.')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Currency of the amounts' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Import 3 records' }));
    expect(await screen.findByText('Imported 3 records (0 already there were skipped).')).toBeInTheDocument();
    expect(sent.map((s) => s.url)).toEqual(['/api/import/preview/7', '/api/import/confirm/7']);
    expect(sent[1]?.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]?.headers['X-CSRF-Token']).toBe('csrf-1');
  }, 20_000);

  it("names the units' guess, previews again with the units picked, and imports with them", async () => {
    storeUser();
    mockApi({});
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    answer = (m) => lubePreview({ distance: 'mi', volume: 'usgal', ...m?.units });
    const { user } = renderPage(<ImportModal vehicle={vehicle} onClose={() => {}} />);
    const file = new File(['Date,Odometer,FuelConsumed,Cost\n'], 'gas.csv', { type: 'text/csv' });
    await user.upload(screen.getByLabelText('Choose a file'), file);

    // Pre-set by the guess, which says where it came from; nothing is sent to confirm yet.
    const units = await screen.findByRole('group', { name: 'Units in the file' });
    expect(units).toHaveAccessibleDescription(
      'Guessed from the $ in the costs: miles and US gallons. The file does not say its units: check them before importing.',
    );
    expect(within(units).getByLabelText('Distances')).toHaveValue('mi');
    expect(within(units).getByLabelText('Volumes')).toHaveValue('usgal');
    expect(screen.getByRole('cell', { name: '244620' })).toBeInTheDocument();
    // The picker already says what the $ did: no duplicate warning in the table.
    expect(screen.queryByRole('table', { name: /Warnings and errors/ })).not.toBeInTheDocument();

    // The figures follow the picker: kilometres, then litres.
    await user.selectOptions(within(units).getByLabelText('Distances'), 'km');
    expect(await screen.findByRole('cell', { name: '152000' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '160.88' })).toBeInTheDocument();
    await user.selectOptions(within(units).getByLabelText('Volumes'), 'l');
    expect(await screen.findByRole('cell', { name: '42.5' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Odometer (km)' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Import 1 records' }));
    expect(await screen.findByText('Imported 1 records (0 already there were skipped).')).toBeInTheDocument();
    expect(sent.map((s) => [s.url, s.mapping])).toEqual([
      ['/api/import/preview/7', undefined],
      ['/api/import/preview/7', { units: { distance: 'km', volume: 'usgal' } }],
      ['/api/import/preview/7', { units: { distance: 'km', volume: 'l' } }],
      ['/api/import/confirm/7', { units: { distance: 'km', volume: 'l' } }],
    ]);
  }, 20_000);

  it('confirms with the guessed units when the user keeps them', async () => {
    storeUser();
    mockApi({});
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    answer = (m) => lubePreview({ distance: 'mi', volume: 'usgal', ...m?.units });
    const { user } = renderPage(<ImportModal vehicle={vehicle} onClose={() => {}} />);
    await user.upload(
      screen.getByLabelText('Choose a file'),
      new File(['x\n'], 'gas.csv', { type: 'text/csv' }),
    );
    await user.click(await screen.findByRole('button', { name: 'Import 1 records' }));
    await screen.findByText(/^Imported 1 records/);
    expect(sent[1]).toMatchObject({
      url: '/api/import/confirm/7',
      mapping: { units: { distance: 'mi', volume: 'usgal' } },
    });
  }, 20_000);

  it('asks for the currency when the file names none, previews again in the one picked, and imports with it', async () => {
    storeUser();
    mockApi({});
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    // A Fuelio backup names no currency: the server assumes the user's lei until another is picked.
    answer = (m) => {
      const currency = m?.currency ?? 'RON';
      return {
        ...preview,
        currency,
        currencyGuess: { reason: 'none', found: [], currency: null, unstated: 3 },
        sample: {
          ...preview.sample,
          fuel: preview.sample.fuel.map((f) => ({ ...f, currency })),
          expenses: preview.sample.expenses.map((e) => ({ ...e, currency })),
        },
      };
    };
    const { user } = renderPage(<ImportModal vehicle={vehicle} onClose={() => {}} />);
    await user.upload(
      screen.getByLabelText('Choose a file'),
      new File(['x\n'], 'fuelio.csv', { type: 'text/csv' }),
    );
    const picker = await screen.findByRole('group', { name: 'Currency of the amounts' });
    expect(picker).toHaveAccessibleDescription(
      'The file does not say its currency: Romanian leu (lei) assumed. Check it before importing.',
    );
    expect(within(picker).getByLabelText('Currency')).toHaveValue('RON');
    expect(screen.getByRole('cell', { name: /^lei\s280\.00$/ })).toBeInTheDocument();

    await user.selectOptions(within(picker).getByLabelText('Currency'), 'EUR');
    expect(await screen.findByRole('cell', { name: '€280.00' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('group', { name: 'Currency of the amounts' })).getByLabelText('Currency'),
    ).toHaveValue('EUR');

    await user.click(screen.getByRole('button', { name: 'Import 3 records' }));
    await screen.findByText(/^Imported 3 records/);
    // What confirm left out is said row by row (the stand-in server answers the preview's errors).
    expect(screen.getByText('Left out (1)')).toBeInTheDocument();
    expect(screen.getByRole('listitem')).toHaveTextContent('Row 9: No readable date.');
    expect(sent.map((s) => [s.url, s.mapping])).toEqual([
      ['/api/import/preview/7', undefined],
      ['/api/import/preview/7', { currency: 'EUR' }],
      ['/api/import/confirm/7', { currency: 'EUR', units: { distance: 'km', volume: 'l' } }],
    ]);
  }, 20_000);
});
