import type { FuelOcrPreview } from '@evdra/domain';
import { act, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import es from '../../../../public/locales/es/translation.json';
import ro from '../../../../public/locales/ro/translation.json';
import { formatMoney } from '../../../lib/format';
import { makeVehicle } from '../../../test/fixtures';
import { jsonResponse, mockApi, renderPage, storeUser } from '../../../test/utils';
import { ocrMarks } from '../components/ocrMarks';
import ExpensesPage from '../pages/ExpensesPage';
import FuelPage from '../pages/FuelPage';
import InsurancePage from '../pages/InsurancePage';
import RevisionPage from '../pages/RevisionPage';

vi.mock('../../../lib/offline-db', () => ({
  loadVehicles: vi.fn(async () => []),
  saveVehicles: vi.fn(async () => undefined),
}));

/** A scripted XMLHttpRequest: the test drives upload progress and the answer. */
class FakeXhr {
  static last: FakeXhr | undefined;
  upload: { onprogress?: (e: ProgressEvent) => void; onload?: () => void } = {};
  onload?: () => void;
  onerror?: () => void;
  onabort?: () => void;
  status = 0;
  responseText = '';
  withCredentials = false;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | undefined;
  aborted = false;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.last = this;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    act(() => this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent));
  }
  uploaded() {
    act(() => this.upload.onload?.());
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    act(() => this.onload?.());
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeXhr.last = undefined;
});

const logan = makeVehicle({ id: 7, ownerId: 1, odometer: 120_000 });
const photo = () =>
  new File([new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3])], 'receipt.jpg', { type: 'image/jpeg' });
const preview: FuelOcrPreview = {
  date: '2025-03-12',
  liters: 42.17,
  fuelPrice: 314.17,
  pricePerLiter: 7.45,
  odometer: 119_500,
  fuelType: 'DIESEL',
  // A receipt that prints no currency: the reader's own (EUR), read with confidence 0.
  currency: 'EUR',
  confidence: {
    currency: 0,
    date: 0.95,
    liters: 0.93,
    fuelPrice: 0.95,
    pricePerLiter: 0.5,
    odometer: 0.9,
    fuelType: 0.95,
  },
  warnings: [
    {
      field: 'odometer',
      code: 'ODOMETER_BELOW_LAST',
      message: "119,500 km is lower than the vehicle's last known reading of 120,000 km.",
    },
  ],
  language: 'ro',
  source: 'ocr',
};

function setup(ui: React.ReactElement, path: string, route: string, list: string, extra = {}) {
  storeUser({ id: 1 });
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  const fetchMock = mockApi({
    'GET /api/vehicles/7': () => jsonResponse(logan),
    [`GET ${list}`]: () => jsonResponse([]),
    ...extra,
  });
  return { fetchMock, ...renderPage(ui, { path, route }) };
}

describe('receipt upload', () => {
  it('fuel: camera picker, upload progress, "Reading receipt…", then Confirm OCR Data filled in; confirm saves', async () => {
    const { user, fetchMock } = setup(
      <FuelPage />,
      '/fuel/:vehicleId',
      '/fuel/7',
      '/api/fuel-consumptions/vehicle/7',
      {
        'POST /api/fuel-ocr/confirm': () => jsonResponse({ id: 1 }, 201),
      },
    );
    await screen.findByRole('heading', { name: /Dacia Logan/ });
    const input = screen.getByTestId('fuel-receipt-input') as HTMLInputElement;
    expect(input).toHaveAttribute('accept', 'image/*,application/pdf');
    expect(input).toHaveAttribute('capture', 'environment');
    await user.upload(input, photo());
    const xhr = FakeXhr.last as FakeXhr;
    expect(xhr.url).toBe('/api/fuel-ocr/preview/7');
    expect(xhr.headers['X-CSRF-Token']).toBe('csrf-1');
    expect(xhr.body?.get('file')).toBeInstanceOf(File);
    xhr.progress(50, 100);
    expect(screen.getByText('Uploading… 50%')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('value', '50');
    expect(screen.getByRole('button', { name: 'Upload Receipt' })).toBeDisabled();
    xhr.uploaded();
    expect(screen.getAllByText('Reading receipt…').length).toBeGreaterThan(0);
    xhr.respond(200, preview);

    const dialog = await screen.findByRole('dialog', { name: 'Confirm OCR Data' });
    expect(within(dialog).getByLabelText(/Litres/)).toHaveValue(42.17);
    expect(within(dialog).getByLabelText(/Total paid/)).toHaveValue(314.17);
    // A diesel-only car has no fuel picker (issue 51): its fill is of its one fuel.
    expect(within(dialog).queryByLabelText(/Fuel type/)).toBeNull();
    expect(
      within(dialog).getByText("119,500 km is lower than the vehicle's last known reading of 120,000 km."),
    ).toBeInTheDocument();
    // Low confidence (price per litre) and warned (odometer) fields are marked for checking.
    expect(dialog.querySelector('[data-ocr-check="pricePerLiter"]')).not.toBeNull();
    expect(dialog.querySelector('[data-ocr-check="odometer"]')).not.toBeNull();
    expect(dialog.querySelector('[data-ocr-check="liters"]')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalledWith('/api/fuel-ocr/confirm', expect.anything());

    const odo = within(dialog).getByLabelText(/Odometer/);
    await user.clear(odo);
    await user.type(odo, '121000');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/fuel-ocr/confirm');
    expect(call).toBeDefined();
    const init = call?.[1] as RequestInit;
    expect(JSON.parse(String(init.body))).toMatchObject({
      vehicleId: 7,
      liters: 42.17,
      odometer: 121000,
      fuelType: 'DIESEL',
    });
    expect((init.headers as Record<string, string>)['Idempotency-Key']).toBeTruthy();
  }, 20_000);

  it('a lei receipt for a euro reader: the currency picker proposes RON, both amounts show, a failed save loses nothing', async () => {
    const { user, fetchMock } = setup(
      <FuelPage />,
      '/fuel/:vehicleId',
      '/fuel/7',
      '/api/fuel-consumptions/vehicle/7',
      {
        'GET /api/fx/rate': (url: string) =>
          url.includes('from=RON') && url.includes('to=EUR') && url.includes('date=2025-03-12')
            ? jsonResponse({
                from: 'RON',
                to: 'EUR',
                rate: 0.201,
                date: '2025-03-12',
                source: 'ECB',
                carried: false,
              })
            : jsonResponse({ code: 'NOT_FOUND', message: 'No rate' }, 404),
        'POST /api/fuel-ocr/confirm': () =>
          jsonResponse(
            {
              code: 'VALIDATION_FAILED',
              message: 'Invalid',
              details: [{ field: 'odometer', message: 'Odometer 119,500 km is lower than 120,000 km.' }],
            },
            400,
          ),
      },
    );
    await screen.findByRole('heading', { name: /Dacia Logan/ });
    await user.upload(screen.getByTestId('fuel-receipt-input'), photo());
    (FakeXhr.last as FakeXhr).respond(200, {
      ...preview,
      currency: 'RON',
      confidence: { ...preview.confidence, currency: 0.95 },
      warnings: [],
    });
    const dialog = await screen.findByRole('dialog', { name: 'Confirm OCR Data' });
    // The picker proposes what the receipt printed, read well: not marked.
    const picker = within(dialog).getByLabelText('Currency');
    expect(picker).toHaveValue('RON');
    expect(dialog.querySelector('[data-ocr-check="currency"]')).toBeNull();
    expect(within(dialog).getByLabelText(/^Total paid/)).toHaveValue(314.17);
    // The amount as paid, and about how much it is in the reader's euros at the day's rate.
    const rate = await within(dialog).findByLabelText('Exchange rate');
    await waitFor(() => expect(rate).toHaveValue(0.201));
    const both = within(dialog).getByTestId('paid-converted');
    // 314.17 lei × 0.201 = 63.15 €, each written as the reader's language writes it ("lei 314.17").
    expect(both.textContent).toBe(
      `Paid: ${formatMoney(314.17, 'en', 'RON')} ≈ ${formatMoney(63.15, 'en', 'EUR')}`,
    );

    // The server refuses: the error shows by its field, and the currency, rate and amounts stay.
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/lower than 120,000 km/)).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/fuel-ocr/confirm');
    expect(call).toBeDefined();
    expect(JSON.parse(String((call?.[1] as RequestInit | undefined)?.body))).toMatchObject({
      currency: 'RON',
      fuelPrice: 314.17,
      exchangeRate: 0.201,
      rateSource: 'ECB',
      rateDate: '2025-03-12',
    });
    expect(within(dialog).getByLabelText('Currency')).toHaveValue('RON');
    expect(within(dialog).getByLabelText('Exchange rate')).toHaveValue(0.201);
    expect(within(dialog).getByTestId('paid-converted')).toBeInTheDocument();

    // The reader's own currency: one amount, no rate.
    await user.selectOptions(within(dialog).getByLabelText('Currency'), 'EUR');
    expect(within(dialog).queryByTestId('paid-converted')).toBeNull();
    expect(within(dialog).queryByLabelText('Exchange rate')).toBeNull();
  }, 20_000);

  it("a receipt that prints its rate ('1 EUR = 4,9750 RON'): the form keeps the receipt's rate, says so, converts with it and saves it as RECEIPT", async () => {
    const { user, fetchMock } = setup(
      <FuelPage />,
      '/fuel/:vehicleId',
      '/fuel/7',
      '/api/fuel-consumptions/vehicle/7',
      {
        // The day's reference rate differs: the receipt's must win, without asking for it.
        'GET /api/fx/rate': () =>
          jsonResponse({
            from: 'RON',
            to: 'EUR',
            rate: 0.199,
            date: '2025-03-12',
            source: 'ECB',
            carried: false,
          }),
        'POST /api/fuel-ocr/confirm': () => jsonResponse({ id: 1 }, 201),
      },
    );
    await screen.findByRole('heading', { name: /Dacia Logan/ });
    await user.upload(screen.getByTestId('fuel-receipt-input'), photo());
    (FakeXhr.last as FakeXhr).respond(200, {
      ...preview,
      odometer: 121_000,
      currency: 'RON',
      exchangeRate: 0.2010050251,
      rateSource: 'RECEIPT',
      confidence: { ...preview.confidence, currency: 0.93, pricePerLiter: 0.95, exchangeRate: 0.9 },
      warnings: [],
    });
    const dialog = await screen.findByRole('dialog', { name: 'Confirm OCR Data' });
    expect(within(dialog).getByLabelText('Currency')).toHaveValue('RON');
    const rate = within(dialog).getByLabelText('Exchange rate');
    expect(rate).toHaveValue(0.2010050251);
    expect(rate).toHaveAccessibleDescription('1 RON in EUR. The rate printed on the receipt.');
    // Both amounts: as paid, and in the reader's euros at the receipt's rate (314.17 × 0.201005 = 63.15).
    expect(within(dialog).getByTestId('paid-converted').textContent).toBe(
      `Paid: ${formatMoney(314.17, 'en', 'RON')} ≈ ${formatMoney(63.15, 'en', 'EUR')}`,
    );
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/fx/rate'))).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Confirm OCR Data' })).toBeNull());
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/fuel-ocr/confirm');
    expect(JSON.parse(String((call?.[1] as RequestInit | undefined)?.body))).toMatchObject({
      currency: 'RON',
      fuelPrice: 314.17,
      exchangeRate: 0.2010050251,
      rateSource: 'RECEIPT',
    });
    expect(es.units.rateFromReceipt).toBeTruthy();
    expect(ro.units.rateFromReceipt).toBeTruthy();
  }, 20_000);

  it('Confirm OCR Data: a field to check is highlighted and says why under it, tied by aria-describedby', async () => {
    const { user } = setup(<FuelPage />, '/fuel/:vehicleId', '/fuel/7', '/api/fuel-consumptions/vehicle/7');
    await screen.findByRole('heading', { name: /Dacia Logan/ });
    await user.upload(screen.getByTestId('fuel-receipt-input'), photo());
    const mismatch =
      'Litres × price per litre (42.17 × 7.45) does not match the total paid (341.17). Check the three numbers.';
    (FakeXhr.last as FakeXhr).respond(200, {
      ...preview,
      fuelPrice: 341.17,
      confidence: { ...preview.confidence, fuelPrice: 0.55, pricePerLiter: 0.5 },
      warnings: [...preview.warnings, { field: 'fuelPrice', code: 'TOTAL_MISMATCH', message: mismatch }],
    });
    const dialog = await screen.findByRole('dialog', { name: 'Confirm OCR Data' });

    // The warning that names the field is said under it (not only at the top of the form).
    const total = within(dialog).getByLabelText(/Total paid/);
    expect(total.closest('[data-ocr-check]')).toHaveAttribute('data-ocr-check', 'fuelPrice');
    expect(total).toHaveAccessibleDescription(mismatch);
    // Low confidence and nothing else: how sure the reading was.
    const ppl = within(dialog).getByLabelText(/Price per litre/);
    expect(ppl.closest('[data-ocr-check]')).not.toBeNull();
    expect(ppl).toHaveAccessibleDescription(
      'Hard to read on the receipt (read with 50% confidence): compare it with the paper.',
    );
    const describedBy = ppl.getAttribute('aria-describedby') ?? '';
    expect(dialog.querySelector(`#${CSS.escape(describedBy)}`)?.textContent).toContain('⚠');
    // A field read well is neither highlighted nor described.
    const litres = within(dialog).getByLabelText(/Litres/);
    expect(litres.closest('[data-ocr-check]')).toBeNull();
    expect(litres).not.toHaveAttribute('aria-describedby');
    // The top of the form counts the marked fields instead of repeating their warnings.
    const notice = within(dialog).getByRole('status');
    expect(notice).toHaveTextContent('3 fields are marked below: each says why under it.');
    expect(within(notice).queryByText(mismatch)).toBeNull();
  }, 20_000);

  it.each([
    ['ro', 'Greu de citit pe bon (citit cu o încredere de 62%): compară cu hârtia.', 'Nu apare pe bon.'],
    [
      'es',
      'Difícil de leer en el recibo (leído con un 62% de confianza): compáralo con el papel.',
      'No figura en el recibo.',
    ],
  ] as const)("the reasons under the fields are in the user's language (%s)", async (lang, low, missing) => {
    i18n.addResourceBundle(lang, 'translation', lang === 'ro' ? ro : es, true, true);
    const t = i18n.getFixedT(lang);
    const fields = [
      { name: 'liters', label: 'L', type: 'number' as const },
      { name: 'odometer', label: 'km', type: 'number' as const },
    ];
    const { marks } = ocrMarks(
      { ...preview, odometer: null, warnings: [], confidence: { ...preview.confidence, liters: 0.62 } },
      fields,
      {},
      t,
    );
    expect(marks).toEqual({ liters: low, odometer: missing });
  });

  it("the currency is marked only when read unsurely; one the receipt does not print is the reader's, unmarked", () => {
    const t = i18n.getFixedT('en');
    const fields = [{ name: 'currency', label: 'Currency', type: 'currency' as const }];
    const unsure = ocrMarks(
      { ...preview, currency: 'HUF', confidence: { ...preview.confidence, currency: 0.5 } },
      fields,
      {},
      t,
    );
    expect(unsure.values.currency).toBe('HUF');
    expect(unsure.marks.currency).toMatch(/50% confidence/);
    const none = ocrMarks(preview, fields, { currency: 'EUR' }, t);
    expect(none.values.currency).toBe('EUR');
    expect(none.marks).toEqual({});
  });

  it('cancel aborts the upload and opens nothing', async () => {
    const { user } = setup(<FuelPage />, '/fuel/:vehicleId', '/fuel/7', '/api/fuel-consumptions/vehicle/7');
    await screen.findByRole('heading', { name: /Dacia Logan/ });
    await user.upload(screen.getByTestId('fuel-receipt-input'), photo());
    (FakeXhr.last as FakeXhr).progress(10, 100);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect((FakeXhr.last as FakeXhr).aborted).toBe(true);
    await waitFor(() => expect(screen.queryByText(/Uploading/)).not.toBeInTheDocument());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it.each([
    [
      'fuel',
      <FuelPage key="f" />,
      '/fuel/:vehicleId',
      '/fuel/7',
      '/api/fuel-consumptions/vehicle/7',
      'OCR failed. Please try again.',
      null,
    ],
    [
      'insurance',
      <InsurancePage key="i" />,
      '/insurance/:vehicleId',
      '/insurance/7',
      '/api/insurance/vehicle/7',
      '❌ OCR failed.',
      'The receipt could not be read.',
    ],
    [
      'expenses',
      <ExpensesPage key="e" />,
      '/expenses/:vehicleId',
      '/expenses/7',
      '/api/expenses/vehicle/7',
      'OCR failed.',
      'Error: The receipt could not be read.',
    ],
    [
      'revision',
      <RevisionPage key="r" />,
      '/revision/:vehicleId',
      '/revision/7',
      '/api/revision/vehicle/7',
      'OCR failed.',
      null,
    ],
  ])('%s: a failed reading shows the spec texts', async (kind, ui, path, route, list, alertText, line) => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const { user } = setup(ui, path, route, list);
    await screen.findByRole('heading', { name: /Dacia Logan/ });
    await user.upload(screen.getByTestId(`${kind}-receipt-input`), photo());
    (FakeXhr.last as FakeXhr).respond(422, {
      code: 'UNREADABLE_RECEIPT',
      message: 'The receipt could not be read: no text.',
    });
    await waitFor(() => expect(alert).toHaveBeenCalledWith(alertText));
    if (line) expect(await screen.findByText(line)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
