import { DOCUMENTS_PAGE_SIZE, type VehicleDocument } from '@evdra/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeVehicle } from '../../../test/fixtures';
import { jsonResponse, makeUser, mockApi, renderPage, storeUser } from '../../../test/utils';
import VehicleDocumentsPage from './VehicleDocumentsPage';

vi.mock('../../../lib/offline-db', () => ({
  loadVehicles: vi.fn(async () => []),
  saveVehicles: vi.fn(async () => undefined),
}));

const logan = makeVehicle({ id: 7, ownerId: 1, access: 'OWNER' });

const saved: VehicleDocument = {
  id: 3,
  vehicleId: 7,
  type: 'MTPL_INSURANCE',
  title: 'RCA',
  number: 'RO/25/1',
  issuedOn: '2026-01-10',
  expiresOn: '2027-01-09',
  notes: '',
  private: true,
  pages: [
    {
      page: 1,
      name: 'rca.jpg',
      contentType: 'image/jpeg',
      size: 1000,
      url: '/api/vehicles/7/documents/3/file',
    },
  ],
  previewUrl: '/api/vehicles/7/documents/3/file?preview=true',
  size: 1200,
  renewalId: 9,
  version: 0,
  createdAt: '2026-01-10T10:00:00Z',
  updatedAt: '2026-01-10T10:00:00Z',
};

function open(country: 'RO' | 'ES', post: Parameters<typeof mockApi>[0][string]) {
  storeUser({ id: 1 });
  const fetchMock = mockApi({
    'GET /api/users/me': () => jsonResponse(makeUser({ country })),
    'GET /api/vehicles/7': () => jsonResponse(logan),
    'GET /api/vehicles/7/documents': () => jsonResponse([]),
    'POST /api/vehicles/7/documents': post,
  });
  return {
    fetchMock,
    ...renderPage(<VehicleDocumentsPage />, { path: '/documents/:vehicleId', route: '/documents/7' }),
  };
}

const readText = (b: Blob) =>
  new Promise<string>((resolve) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.readAsText(b);
  });

const photo = () => new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], 'rca.jpg', { type: 'image/jpeg' });

describe('the document form', { timeout: 20_000 }, () => {
  it("shows the types under the user's country's names, and errors next to their fields with nothing typed lost", async () => {
    const { user, fetchMock } = open('RO', () =>
      jsonResponse(
        {
          code: 'VALIDATION_FAILED',
          message: 'Check the fields.',
          details: [{ field: 'number', message: 'At most 60 characters.' }],
        },
        400,
      ),
    );
    await user.click(await screen.findByRole('button', { name: 'Add document' }));
    const dialog = await screen.findByRole('dialog');
    const type = within(dialog).getByRole('combobox', { name: 'Type' });
    const names = within(type)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(names.slice(0, 3)).toEqual([
      'Registration certificate (talon)',
      'RCA (liability insurance)',
      'ITP (technical inspection)',
    ]);
    await user.selectOptions(type, 'MTPL_INSURANCE');
    // The title follows the type until typed; an insurance policy is private by default.
    expect(within(dialog).getByRole('textbox', { name: 'Title' })).toHaveValue('RCA (liability insurance)');
    expect(within(dialog).getByRole('checkbox', { name: /Private/ })).toBeChecked();

    // No page: said under the pages field, nothing sent.
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Add at least one page: a photo or a PDF.')).toBeInTheDocument();
    expect(
      fetchMock.mock.calls.some(([, init]) => (init as RequestInit | undefined)?.method === 'POST'),
    ).toBe(false);

    await user.type(within(dialog).getByRole('textbox', { name: 'Number' }), 'RO/25/123456');
    await user.type(within(dialog).getByLabelText('Expires on'), '2027-01-09');
    await user.upload(within(dialog).getByLabelText(/Pages/), photo());
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    // The server's error stands next to the number; every value typed is still there.
    const number = within(dialog).getByRole('textbox', { name: 'Number' });
    await waitFor(() => expect(number).toHaveAccessibleDescription('At most 60 characters.'));
    expect(number).toHaveValue('RO/25/123456');
    expect(within(dialog).getByLabelText('Expires on')).toHaveValue('2027-01-09');
    expect(within(dialog).getByText('rca.jpg')).toBeInTheDocument();

    // What was sent: the data part as JSON and the page under its name.
    const [, init] =
      fetchMock.mock.calls.find(([, i]) => (i as RequestInit | undefined)?.method === 'POST') ?? [];
    const body = (init as RequestInit).body as FormData;
    expect(JSON.parse(await readText(body.get('data') as Blob))).toEqual({
      type: 'MTPL_INSURANCE',
      title: 'RCA (liability insurance)',
      number: 'RO/25/123456',
      issuedOn: null,
      expiresOn: '2027-01-09',
      notes: '',
      private: true,
    });
    expect((body.get('files') as File).name).toBe('rca.jpg');
  });

  it('a refused PDF says why and keeps the form; a Spanish driver sees the Spanish names', async () => {
    const { user } = open('ES', () =>
      jsonResponse(
        {
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message:
            'This PDF is encrypted (password-protected). Save it without a password and upload it again.',
          details: [{ field: 'files', message: 'Encrypted PDF.' }],
        },
        415,
      ),
    );
    await user.click(await screen.findByRole('button', { name: 'Add document' }));
    const dialog = await screen.findByRole('dialog');
    const names = within(within(dialog).getByRole('combobox', { name: 'Type' }))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(names).toContain('Permiso de circulación (registration)');
    expect(names).toContain('ITV (technical inspection)');
    expect(names).toContain('Etiqueta ambiental (environmental label)');
    await user.upload(
      within(dialog).getByLabelText(/Pages/),
      new File(['%PDF-1.4'], 'seguro.pdf', { type: 'application/pdf' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    // Said in the reader's language, next to the pages; the chosen file is still there.
    const said = 'This PDF is password-protected. Save it without a password and add it again.';
    await waitFor(() =>
      expect(within(dialog).getByLabelText(/Pages/)).toHaveAccessibleDescription(new RegExp(said)),
    );
    // …and above the buttons.
    expect(within(dialog).getAllByText(said)).toHaveLength(2);
    expect(within(dialog).getByText('seguro.pdf')).toBeInTheDocument();
  });

  it("scanning an RCA's photo proposes its number, insurer and dates; nothing is saved until Save", async () => {
    const { user, fetchMock } = open('RO', () => jsonResponse(saved, 201));
    const routes = fetchMock.getMockImplementation();
    fetchMock.mockImplementation(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.startsWith('/api/insurance-ocr/preview/7'))
        return jsonResponse({
          provider: 'Allianz-Țiriac',
          policyNumber: 'RO/25/998877',
          coverageType: 'RCA',
          startDate: '2026-02-01',
          endDate: '2027-01-31',
          price: 1250.5,
          reminderEnabled: true,
          confidence: {},
          warnings: [],
          language: 'ro',
          source: 'ocr',
          currency: 'RON',
        });
      return (routes as NonNullable<typeof routes>)(input, init);
    });
    await user.click(await screen.findByRole('button', { name: 'Add document' }));
    const dialog = await screen.findByRole('dialog');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Type' }), 'MTPL_INSURANCE');
    await user.upload(within(dialog).getByLabelText(/Pages/), photo());
    await user.click(within(dialog).getByRole('button', { name: 'Read the policy from the photo' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('textbox', { name: 'Number' })).toHaveValue('RO/25/998877'),
    );
    expect(within(dialog).getByRole('textbox', { name: 'Title' })).toHaveValue(
      'RCA (liability insurance) Allianz-Țiriac',
    );
    expect(within(dialog).getByLabelText('Issued on')).toHaveValue('2026-02-01');
    expect(within(dialog).getByLabelText('Expires on')).toHaveValue('2027-01-31');
    const posts = () =>
      fetchMock.mock.calls.filter(
        ([u, i]) => String(u) === '/api/vehicles/7/documents' && (i as RequestInit)?.method === 'POST',
      );
    expect(posts()).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
  });

  it('scanning an ITV certificate proposes its expiry; the scan saves nothing', async () => {
    const { user, fetchMock } = open('ES', () => jsonResponse(saved, 201));
    const routes = fetchMock.getMockImplementation();
    fetchMock.mockImplementation(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.startsWith('/api/inspection-ocr/preview/7'))
        return jsonResponse({
          expiresOn: '2026-06-20',
          confidence: { expiresOn: 0.9 },
          language: 'es',
          source: 'ocr',
        });
      return (routes as NonNullable<typeof routes>)(input, init);
    });
    await user.click(await screen.findByRole('button', { name: 'Add document' }));
    const dialog = await screen.findByRole('dialog');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Type' }), 'INSPECTION');
    await user.upload(within(dialog).getByLabelText(/Pages/), photo());
    await user.click(within(dialog).getByRole('button', { name: 'Read the expiry from the certificate' }));
    await waitFor(() => expect(within(dialog).getByLabelText('Expires on')).toHaveValue('2026-06-20'));
    expect(
      fetchMock.mock.calls.filter(
        ([u, i]) => String(u) === '/api/vehicles/7/documents' && i?.method === 'POST',
      ),
    ).toHaveLength(0);
  });

  it('a saved document shows in the list with its preview and validity', async () => {
    storeUser({ id: 1 });
    mockApi({
      'GET /api/users/me': () => jsonResponse(makeUser({ country: 'RO' })),
      'GET /api/vehicles/7': () => jsonResponse(logan),
      'GET /api/vehicles/7/documents': () => jsonResponse([saved]),
    });
    renderPage(<VehicleDocumentsPage />, { path: '/documents/:vehicleId', route: '/documents/7' });
    const item = (await screen.findByRole('heading', { name: 'RCA' })).closest('li') as HTMLElement;
    expect(within(item).getByText('RCA (liability insurance) · RO/25/1')).toBeInTheDocument();
    expect(within(item).getByText(/Valid until/)).toBeInTheDocument();
    expect(item.querySelector('img')?.getAttribute('src')).toBe(saved.previewUrl);
  });

  it('a car with many papers shows a page, and Load more brings the next (issue 54)', async () => {
    storeUser({ id: 1 });
    const doc = (id: number): VehicleDocument => ({ ...saved, id, title: `Invoice ${id}`, renewalId: null });
    const first = Array.from({ length: DOCUMENTS_PAGE_SIZE }, (_, i) => doc(200 - i));
    const fetchMock = mockApi({
      'GET /api/users/me': () => jsonResponse(makeUser({ country: 'RO' })),
      'GET /api/vehicles/7': () => jsonResponse(logan),
      'GET /api/vehicles/7/documents': (url) =>
        new URL(url, 'http://x').searchParams.get('cursor') === '151'
          ? jsonResponse([doc(12)])
          : new Response(JSON.stringify(first), {
              headers: { 'Content-Type': 'application/json', 'X-Next-Cursor': '151' },
            }),
    });
    const { user } = renderPage(<VehicleDocumentsPage />, {
      path: '/documents/:vehicleId',
      route: '/documents/7',
    });
    await screen.findByRole('heading', { name: 'Invoice 151' });
    expect(screen.queryByRole('heading', { name: 'Invoice 12' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('heading', { name: 'Invoice 12' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Invoice 200' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument());
    const asked = fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.includes('/documents'));
    expect(asked.every((u) => u.includes(`limit=${DOCUMENTS_PAGE_SIZE}`))).toBe(true);
  });
});
