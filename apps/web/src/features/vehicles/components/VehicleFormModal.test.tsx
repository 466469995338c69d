import { fitWithin } from '@evdra/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeVehicle } from '../../../test/fixtures';
import { jsonResponse, mockApi, renderPage, storeUser } from '../../../test/utils';
import { downsizePhoto, photoTargetSize } from '../photo';
import { VehicleFormModal } from './VehicleFormModal';

vi.mock('../../../lib/offline-db', () => ({
  loadVehicles: vi.fn(async () => []),
  saveVehicles: vi.fn(async () => undefined),
}));

function renderForm(vehicle = null as ReturnType<typeof makeVehicle> | null, routes = {}) {
  storeUser();
  const fetchMock = mockApi(routes);
  const onSaved = vi.fn();
  const onCreateError = vi.fn();
  const result = renderPage(
    <VehicleFormModal vehicle={vehicle} onClose={() => {}} onSaved={onSaved} onCreateError={onCreateError} />,
  );
  const dialog = screen.getByRole('dialog', { name: vehicle ? 'Edit vehicle' : 'Add vehicle' });
  return { fetchMock, onSaved, onCreateError, dialog, ...result };
}

/** Types a new car's required fields (a 2019 Dacia Logan at 1,000 km) with this registration. */
async function fillRequired(
  user: ReturnType<typeof renderForm>['user'],
  dialog: HTMLElement,
  registration: string,
) {
  await user.type(within(dialog).getByLabelText('Make'), 'Dacia');
  await user.type(within(dialog).getByLabelText('Model'), 'Logan');
  await user.type(within(dialog).getByLabelText('Year'), '2019');
  await user.type(within(dialog).getByLabelText('Registration number'), registration);
  await user.type(within(dialog).getByLabelText('Engine size (L)'), '1.5');
  await user.type(within(dialog).getByLabelText('Odometer (km)'), '1000');
}

/** Fakes image decoding and the canvas (jsdom has neither). */
function fakeImagePipeline(width: number, height: number) {
  vi.stubGlobal(
    'createImageBitmap',
    vi.fn(async () => ({ width, height, close: () => {} })),
  );
  const drawImage = vi.fn();
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({
    drawImage,
  } as unknown as CanvasRenderingContext2D);
  const toBlob = vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation(function (
    this: HTMLCanvasElement,
    cb: BlobCallback,
    type?: string,
  ) {
    cb(new Blob([`jpeg ${this.width}x${this.height}`], { type }));
  });
  vi.stubGlobal(
    'URL',
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:preview'), revokeObjectURL: vi.fn() }),
  );
  return { drawImage, toBlob };
}

describe('photo downsizing', () => {
  it('fits within 600×400 keeping proportions and never enlarges (fitWithin)', () => {
    expect(photoTargetSize(1200, 1200)).toEqual({ width: 400, height: 400 });
    expect(photoTargetSize(4000, 1000)).toEqual({ width: 600, height: 150 });
    expect(photoTargetSize(300, 200)).toEqual({ width: 300, height: 200 });
    expect(photoTargetSize(3024, 4032)).toEqual(fitWithin(3024, 4032, 600, 400));
  });

  it('draws on a canvas of the fitted size and encodes JPEG at quality 0.8', async () => {
    const { drawImage, toBlob } = fakeImagePipeline(1600, 1200);
    const blob = await downsizePhoto(new File(['x'], 'car.png', { type: 'image/png' }));
    expect(drawImage).toHaveBeenCalledWith(expect.anything(), 0, 0, 533, 400);
    expect(toBlob).toHaveBeenCalledWith(expect.any(Function), 'image/jpeg', 0.8);
    expect(blob.type).toBe('image/jpeg');
  });
});

describe('VehicleFormModal', () => {
  it('shows validation messages next to the fields and sends nothing', async () => {
    const { user, dialog, fetchMock } = renderForm();
    await user.type(within(dialog).getByLabelText('Year'), '1700');
    await user.type(within(dialog).getByLabelText('Engine size (L)'), '12');
    await user.type(within(dialog).getByLabelText('Odometer (km)'), '12.5');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByLabelText('Make')).toHaveAccessibleDescription('Make is required.');
    expect(within(dialog).getByLabelText('Model')).toHaveAccessibleDescription('Model is required.');
    expect(within(dialog).getByLabelText('Registration number')).toHaveAccessibleDescription(
      'Registration number is required.',
    );
    expect(within(dialog).getByLabelText('Year')).toHaveAccessibleDescription(
      `Enter a whole year from 1886 to ${new Date().getFullYear() + 1}.`,
    );
    expect(within(dialog).getByLabelText('Engine size (L)')).toHaveAccessibleDescription(
      'Engine size must be between 0 and 10 L.',
    );
    expect(within(dialog).getByLabelText('Odometer (km)')).toHaveAccessibleDescription(
      'Odometer must be a whole number of km, 0 or more.',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('takes an optional VIN: a malformed one is explained next to the field, a good one is sent upper-case', async () => {
    const { user, dialog, fetchMock, onSaved } = renderForm(null, {
      'POST /api/vehicles': () => jsonResponse(makeVehicle({ vin: 'WVWZZZ1JZXW000001' }), 201),
    });
    await fillRequired(user, dialog, 'B1');
    const vin = within(dialog).getByLabelText('VIN (optional)');
    expect(vin).toHaveAccessibleDescription('17 letters and digits, as on the registration certificate.');
    await user.type(vin, 'WVWZZZ1JZXW00000I');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(vin).toHaveAccessibleDescription('VIN must be 17 letters and digits, without I, O or Q.');
    expect(vin).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByLabelText('Make')).not.toHaveAttribute('aria-invalid');
    expect(fetchMock).not.toHaveBeenCalled();
    await user.clear(vin);
    await user.type(vin, ' wvwzzz1jzxw000001 ');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toMatchObject({
      registrationNumber: 'B1',
      vin: 'WVWZZZ1JZXW000001',
    });
  });

  it("edits a vehicle's VIN: shown in the field, a server refusal is put next to it, empty clears it", async () => {
    let answer = () =>
      jsonResponse(
        {
          code: 'VALIDATION_FAILED',
          message: 'Invalid request.',
          details: [{ field: 'vin', message: 'VIN must be 17 letters and digits, without I, O or Q.' }],
        },
        400,
      );
    const { user, dialog, fetchMock, onSaved } = renderForm(makeVehicle({ vin: 'WVWZZZ1JZXW000001' }), {
      'PUT /api/vehicles/7': () => answer(),
    });
    const vin = within(dialog).getByLabelText('VIN (optional)');
    expect(vin).toHaveValue('WVWZZZ1JZXW000001');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(vin).toHaveAccessibleDescription('VIN must be 17 letters and digits, without I, O or Q.'),
    );
    expect(onSaved).not.toHaveBeenCalled();
    answer = () => jsonResponse(makeVehicle({ vin: null, version: 4 }));
    await user.clear(vin);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const [, second] = fetchMock.mock.calls[1] as [string, RequestInit];
    expect(JSON.parse(String(second.body))).toMatchObject({ vin: null, version: 3 });
  });

  it('keeps what was typed and shows server field errors when a create fails; a retry reuses the Idempotency-Key', async () => {
    const { user, dialog, fetchMock, onSaved } = renderForm(null, {
      'POST /api/vehicles': () =>
        jsonResponse(
          { code: 'DUPLICATE_REGISTRATION', message: 'dup', details: [{ field: 'registrationNumber' }] },
          409,
        ),
    });
    await user.type(within(dialog).getByLabelText('Make'), 'Dacia');
    await user.type(within(dialog).getByLabelText('Model'), 'Logan');
    await user.type(within(dialog).getByLabelText('Year'), '2019');
    await user.selectOptions(within(dialog).getByLabelText('Fuel type'), 'DIESEL');
    await user.type(within(dialog).getByLabelText('Registration number'), 'b-123-abc');
    await user.type(within(dialog).getByLabelText('Engine size (L)'), '1.5');
    await user.type(within(dialog).getByLabelText('Odometer (km)'), '120000');
    await user.click(within(dialog).getByLabelText('I agree to an AI evaluation of this vehicle'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('A vehicle with this registration number already exists.'),
    ).toBeVisible();
    expect(within(dialog).getByLabelText('Make')).toHaveValue('Dacia');
    expect(within(dialog).getByLabelText('Fuel type')).toHaveValue('DIESEL');
    expect(within(dialog).getByLabelText('Odometer (km)')).toHaveValue(120000);
    expect(within(dialog).getByLabelText('I agree to an AI evaluation of this vehicle')).toBeChecked();
    expect(onSaved).not.toHaveBeenCalled();

    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({
      make: 'Dacia',
      model: 'Logan',
      year: 2019,
      fuelType: 'DIESEL',
      registrationNumber: 'B-123-ABC',
      vin: null,
      engineSize: 1.5,
      odometer: 120000,
      aiEvaluationConsent: true,
    });
    const key = (init.headers as Record<string, string>)['Idempotency-Key'];
    expect(key).toMatch(/.{8,}/);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const [, retry] = fetchMock.mock.calls[1] as [string, RequestInit];
    expect((retry.headers as Record<string, string>)['Idempotency-Key']).toBe(key);
  });

  it('on a 409 version conflict says the vehicle changed elsewhere, shows the current values and keeps the edit', async () => {
    const current = makeVehicle({ make: 'Dacia', model: 'Sandero', odometer: 130000, version: 5 });
    const { user, dialog, fetchMock } = renderForm(makeVehicle(), {
      'PUT /api/vehicles/7': () =>
        jsonResponse({ code: 'VERSION_CONFLICT', message: 'stale', details: current }, 409),
    });
    const odometer = within(dialog).getByLabelText('Odometer (km)');
    await user.clear(odometer);
    await user.type(odometer, '125000');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This vehicle was changed elsewhere.')).toBeInTheDocument();
    expect(
      within(dialog).getByText(/Current values: Dacia Sandero, 2019, Diesel, B-123-ABC, 1.5 L, 130000 km/),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Odometer (km)')).toHaveValue(125000);
    const [, first] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(JSON.parse(String(first.body))).toMatchObject({ odometer: 125000, version: 3 });
    // Saving again overwrites the version the server reported.
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const [, second] = fetchMock.mock.calls[1] as [string, RequestInit];
    expect(JSON.parse(String(second.body))).toMatchObject({ odometer: 125000, version: 5 });
  });

  it("alerts 'Update failed: …' for other update failures and stays open", async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const { user, dialog } = renderForm(makeVehicle(), {
      'PUT /api/vehicles/7': () => jsonResponse({ code: 'INTERNAL', message: 'x' }, 500),
    });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(alert).toHaveBeenCalledWith(
        'Update failed: Something went wrong on the server. Please try again.',
      ),
    );
    expect(screen.getByRole('dialog', { name: 'Edit vehicle' })).toBeInTheDocument();
  });

  it('downsizes the chosen photo, previews it and uploads it as JPEG after creating', async () => {
    fakeImagePipeline(1200, 900);
    const created = makeVehicle({ id: 11 });
    const { user, dialog, fetchMock, onSaved } = renderForm(null, {
      'POST /api/vehicles': () => jsonResponse(created, 201),
      'POST /api/vehicles/11/upload-photo': () =>
        new Response('/api/files/abc', { status: 200, headers: { 'Content-Type': 'text/plain' } }),
    });
    await fillRequired(user, dialog, 'B1');
    await user.upload(
      within(dialog).getByLabelText(/^Photo/),
      new File(['big png'], 'car.png', { type: 'image/png' }),
    );
    expect(await within(dialog).findByRole('img', { name: 'Photo preview' })).toHaveAttribute(
      'src',
      'blob:preview',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith({ ...created, photoUrl: '/api/files/abc' }));
    const upload = fetchMock.mock.calls.find(([url]) => url === '/api/vehicles/11/upload-photo') as [
      string,
      RequestInit,
    ];
    const body = upload[1].body as FormData;
    expect(body).toBeInstanceOf(FormData);
    const file = body.get('file') as File;
    expect(file.type).toBe('image/jpeg');
    expect(file.size).toBe('jpeg 533x400'.length); // the canvas was 533×400
    expect((upload[1].headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });

  it("keeps the new vehicle but alerts 'Upload failed: …' when its photo is refused", async () => {
    fakeImagePipeline(800, 600);
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const created = makeVehicle({ id: 12 });
    const { user, dialog, onSaved } = renderForm(null, {
      'POST /api/vehicles': () => jsonResponse(created, 201),
      'POST /api/vehicles/12/upload-photo': () =>
        jsonResponse(
          { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Only JPEG, PNG or WebP images are accepted.' },
          415,
        ),
    });
    await fillRequired(user, dialog, 'B2');
    await user.upload(
      within(dialog).getByLabelText(/^Photo/),
      new File(['png'], 'car.png', { type: 'image/png' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith(expect.stringMatching(/^Upload failed: /)));
    expect(onSaved).toHaveBeenCalledWith(created);
  });

  it('refuses non-image files', async () => {
    const { dialog } = renderForm();
    fireEvent.change(within(dialog).getByLabelText(/^Photo/), {
      target: { files: [new File(['%PDF'], 'a.pdf', { type: 'application/pdf' })] },
    });
    expect(await within(dialog).findByText('Only image files are accepted.')).toBeInTheDocument();
  });
});

describe('the odometer in the reader’s distance unit', () => {
  it('a miles reader reads and edits the odometer in miles; the server gets km', async () => {
    const car = makeVehicle({ id: 3, odometer: 160934 });
    storeUser({ distanceUnit: 'mi' });
    const fetchMock = mockApi({
      'PUT /api/vehicles/3': (_u, init) => jsonResponse({ ...car, ...JSON.parse(String(init?.body)) }),
    });
    const onSaved = vi.fn();
    const { user } = renderPage(<VehicleFormModal vehicle={car} onClose={() => {}} onSaved={onSaved} />);
    const dialog = screen.getByRole('dialog', { name: 'Edit vehicle' });
    const odometer = within(dialog).getByLabelText('Odometer (mi)');
    expect(odometer).toHaveValue(100000);
    await user.clear(odometer);
    await user.type(odometer, '100250');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    // 100,250 mi is 161,336.7 km.
    expect(JSON.parse(String(put?.[1]?.body))).toMatchObject({ odometer: 161337 });
  }, 20_000);

  it('a miles reader’s refused odometer is explained in miles, not km', async () => {
    const car = makeVehicle({ id: 3, odometer: 160934 });
    storeUser({ distanceUnit: 'mi' });
    const fetchMock = mockApi({});
    const { user } = renderPage(<VehicleFormModal vehicle={car} onClose={() => {}} onSaved={vi.fn()} />);
    const dialog = screen.getByRole('dialog', { name: 'Edit vehicle' });
    const odometer = within(dialog).getByLabelText('Odometer (mi)');
    await user.clear(odometer);
    await user.type(odometer, '100250.5');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(odometer).toHaveAccessibleDescription('Odometer must be a whole number of mi, 0 or more.');
    expect(fetchMock).not.toHaveBeenCalled();
  }, 20_000);
});
