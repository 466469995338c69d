import type { Renewal } from '@evdra/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { todayIso } from '../../../lib/format';
import { makeVehicle } from '../../../test/fixtures';
import { jsonResponse, makeUser, mockApi, renderPage, storeUser } from '../../../test/utils';
import RenewalsPage from './RenewalsPage';

vi.mock('../../../lib/offline-db', () => ({
  loadVehicles: vi.fn(async () => []),
  saveVehicles: vi.fn(async () => undefined),
}));

/** The calendar day `k` days from today (local, as the page counts). */
const day = (k: number) => {
  const d = new Date(`${todayIso()}T12:00:00`);
  d.setDate(d.getDate() + k);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};

const renewal = (o: Partial<Renewal>): Renewal => ({
  id: 1,
  vehicleId: 7,
  type: 'RCA',
  validFrom: null,
  validUntil: day(30),
  price: null,
  note: '',
  reminderEnabled: true,
  version: 1,
  ...o,
});

const logan = makeVehicle({ id: 7, year: 2012, ownerId: 1 });

function open(country: 'RO' | 'ES' | 'GENERIC', list: Renewal[], extra: Parameters<typeof mockApi>[0] = {}) {
  storeUser({ id: 1 });
  const fetchMock = mockApi({
    'GET /api/users/me': () => jsonResponse(makeUser({ country })),
    'GET /api/vehicles/7': () => jsonResponse(logan),
    'GET /api/vehicles/7/renewals': () => jsonResponse(list),
    ...extra,
  });
  return {
    fetchMock,
    ...renderPage(<RenewalsPage />, { path: '/renewals/:vehicleId', route: '/renewals/7' }),
  };
}

const typeOptions = () =>
  within(screen.getByRole('combobox', { name: 'Type' }))
    .getAllByRole('option')
    .map((o) => o.textContent);

describe('RenewalsPage', { timeout: 20_000 }, () => {
  it('lists renewals soonest first: expired in red, days left, price, note, reminder state', async () => {
    open('RO', [
      renewal({ id: 1, type: 'ITP', validUntil: day(200), price: 150, note: 'RAR Pipera' }),
      renewal({ id: 2, type: 'ROVINIETA', validUntil: day(-3), reminderEnabled: false }),
      renewal({ id: 3, type: 'RCA', validUntil: day(12) }),
    ]);
    expect(await screen.findByRole('heading', { name: 'Renewals of Dacia Logan' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Renewals' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((li) => within(li).getByRole('heading').textContent?.trim())).toEqual([
      'Rovinietă (road vignette)',
      'RCA (liability insurance)',
      'ITP (technical inspection)',
    ]);
    const expired = within(items[0] as HTMLElement).getByText('expired');
    expect(expired).toHaveClass('text-danger');
    expect(within(items[0] as HTMLElement).getByLabelText('Reminder off')).toBeInTheDocument();
    expect(within(items[1] as HTMLElement).getByText('12 days left')).toBeInTheDocument();
    expect(within(items[1] as HTMLElement).getByLabelText('Reminder on')).toBeInTheDocument();
    expect(within(items[2] as HTMLElement).getByText('€150.00')).toBeInTheDocument();
    expect(within(items[2] as HTMLElement).getByText('RAR Pipera')).toBeInTheDocument();
  });

  it('offers the types of the country setting, always with "Other"', async () => {
    const { user, unmount } = open('RO', []);
    expect(await screen.findByText('No renewals yet.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add renewal' }));
    await waitFor(() =>
      expect(typeOptions()).toEqual([
        'RCA (liability insurance)',
        'CASCO (comprehensive insurance)',
        'ITP (technical inspection)',
        'Rovinietă (road vignette)',
        'Other',
      ]),
    );
    unmount();

    const es = open('ES', []);
    await screen.findByText('No renewals yet.');
    await es.user.click(screen.getByRole('button', { name: 'Add renewal' }));
    await waitFor(() =>
      expect(typeOptions()).toEqual([
        'Mandatory insurance (seguro obligatorio)',
        'ITV (technical inspection)',
        'IVTM (road tax)',
        'Other',
      ]),
    );
    es.unmount();

    const generic = open('GENERIC', []);
    await screen.findByText('No renewals yet.');
    await generic.user.click(screen.getByRole('button', { name: 'Add renewal' }));
    await waitFor(() =>
      expect(typeOptions()).toEqual(['Insurance', 'Technical inspection', 'Road tax', 'Vignette', 'Other']),
    );
  });

  it('keeps an existing renewal’s type when the country no longer lists it', async () => {
    const { user } = open('ES', [renewal({ id: 4, type: 'RCA' })]);
    await user.click(await screen.findByRole('button', { name: 'Edit RCA (liability insurance)' }));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Type' })).toHaveValue('RCA'));
    expect(typeOptions()[0]).toBe('RCA (liability insurance)');
    expect(typeOptions().at(-1)).toBe('Other');
  });

  it('shows form errors next to their field: a missing end date, a bad price, the server’s', async () => {
    let post: unknown;
    const { user } = open('RO', [], {
      'POST /api/vehicles/7/renewals': (_url, init) => {
        post = JSON.parse(String(init.body));
        return jsonResponse(
          {
            code: 'VALIDATION_ERROR',
            message: 'Invalid input',
            details: [{ field: 'validUntil', message: 'Must be on or after the start date.' }],
          },
          400,
        );
      },
    });
    await screen.findByText('No renewals yet.');
    await user.click(screen.getByRole('button', { name: 'Add renewal' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Price (€)'), 'abc');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByLabelText('Valid until')).toHaveAccessibleDescription('Required.');
    expect(within(dialog).getByLabelText('Price (€)')).toHaveAccessibleDescription(
      'Enter an amount of 0 or more.',
    );
    expect(post).toBeUndefined();

    // A policy paid in lei: the price's label follows the currency picked.
    await user.selectOptions(within(dialog).getByLabelText('Currency'), 'RON');
    await user.clear(within(dialog).getByLabelText('Price (lei)'));
    await user.type(within(dialog).getByLabelText('Price (lei)'), '120,50');
    await user.type(within(dialog).getByLabelText('Valid from'), day(10));
    await user.type(within(dialog).getByLabelText('Valid until'), day(5));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Valid until')).toHaveAccessibleDescription(
        'Must be on or after the start date.',
      ),
    );
    expect(within(dialog).getByLabelText('Price (lei)')).not.toHaveAccessibleDescription();
    expect(post).toMatchObject({
      type: 'RCA',
      validFrom: day(10),
      validUntil: day(5),
      price: 120.5,
      currency: 'RON',
    });
  });

  it('ITP: suggests the next date by the car’s age and fills it in on request', async () => {
    const { user } = open('RO', []);
    await screen.findByText('No renewals yet.');
    await user.click(screen.getByRole('button', { name: 'Add renewal' }));
    const dialog = await screen.findByRole('dialog');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Type' }), 'ITP');
    await user.type(within(dialog).getByLabelText('Valid from'), '2025-03-01');
    // A 2012 car is over 12 years old in 2025: every year.
    expect(within(dialog).getByLabelText('Valid until')).toHaveAccessibleDescription(
      /^By the inspection rule for this vehicle’s age: next due (1 Mar 2026|Mar 1, 2026|01\/03\/2026)\.$/,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Use the suggested date' }));
    expect(within(dialog).getByLabelText('Valid until')).toHaveValue('2026-03-01');
  });

  it('rovinietă: a period from 1 day to 12 months fills in its last valid day', async () => {
    let post: unknown;
    const { user } = open('RO', [], {
      'POST /api/vehicles/7/renewals': (_url, init) => {
        post = JSON.parse(String(init.body));
        return jsonResponse(renewal({ type: 'ROVINIETA' }), 201);
      },
    });
    await screen.findByText('No renewals yet.');
    await user.click(screen.getByRole('button', { name: 'Add renewal' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByRole('combobox', { name: 'Period' })).toBeNull();
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Type' }), 'ROVINIETA');
    const period = within(dialog).getByRole('combobox', { name: 'Period' });
    expect(
      within(period)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose…', '1 day', '7 days', '10 days', '30 days', '60 days', '90 days', '12 months']);
    // No start yet: from today.
    await user.selectOptions(period, '10d');
    expect(within(dialog).getByLabelText('Valid from')).toHaveValue(todayIso());
    expect(within(dialog).getByLabelText('Valid until')).toHaveValue(day(9));
    // A new start moves the end with it.
    await user.clear(within(dialog).getByLabelText('Valid from'));
    await user.type(within(dialog).getByLabelText('Valid from'), '2025-03-01');
    await user.selectOptions(period, '12m');
    expect(within(dialog).getByLabelText('Valid until')).toHaveValue('2026-02-28');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(post).toMatchObject({ type: 'ROVINIETA', validFrom: '2025-03-01', validUntil: '2026-02-28' }),
    );
  });
});
const rca: Renewal = {
  id: 3,
  vehicleId: 7,
  type: 'RCA',
  validFrom: '2025-01-01',
  validUntil: '2099-01-01',
  price: 150,
  note: '',
  reminderEnabled: true,
  version: 0,
};

// Issue 22: a viewer of a shared car reads its renewals but is not offered writes the server refuses.
describe('RenewalsPage of a shared car', () => {
  it.each([
    ['VIEWER', false],
    ['EDITOR', true],
    ['OWNER', true],
  ] as const)('as %s: Add, Edit and Delete shown: %s', async (access, writes) => {
    storeUser({ id: 2, username: 'bob' });
    mockApi({
      'GET /api/vehicles/7': () => jsonResponse(makeVehicle({ id: 7, ownerId: 1, access })),
      'GET /api/vehicles/7/renewals': () => jsonResponse([rca]),
      'GET /api/users/me': () => jsonResponse(makeUser({ id: 2, username: 'bob' })),
    });
    renderPage(<RenewalsPage />, { path: '/renewals/:vehicleId', route: '/renewals/7' });
    expect(await screen.findByText('Renewals of Dacia Logan')).toBeInTheDocument();
    expect(await screen.findByText(/RCA/)).toBeInTheDocument();
    expect(screen.queryAllByRole('button', { name: 'Add renewal' })).toHaveLength(writes ? 1 : 0);
    expect(screen.queryAllByRole('button', { name: /^Edit / })).toHaveLength(writes ? 1 : 0);
    expect(screen.queryAllByRole('button', { name: /^Delete / })).toHaveLength(writes ? 1 : 0);
  });
});
