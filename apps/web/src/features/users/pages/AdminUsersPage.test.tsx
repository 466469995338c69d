import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeUser, mockApi, renderPage, storeUser } from '../../../test/utils';
import AdminUsersPage from './AdminUsersPage';

const bob = makeUser({
  id: 2,
  username: 'bob',
  email: 'bob@example.com',
  status: '' as never, // a blank status from older data is shown as Active
  gdprConsent: false,
  vehicles: [{ id: 7, make: 'Dacia', model: 'Logan' }],
});

function renderAdmin(routes: Parameters<typeof mockApi>[0] = {}) {
  storeUser({ role: 'ADMIN', username: 'root' });
  const fetchMock = mockApi({ 'GET /api/admin/users': () => jsonResponse([bob]), ...routes });
  return { fetchMock, ...renderPage(<AdminUsersPage />, { path: '/admin/users', route: '/admin/users' }) };
}

describe('AdminUsersPage', () => {
  it('lists users with a blank status shown as Active and their vehicles', async () => {
    renderAdmin();
    const row = (await screen.findByRole('cell', { name: 'bob' })).closest('tr') as HTMLElement;
    expect(within(row).getByRole('cell', { name: 'Active' })).toBeInTheDocument();
    expect(within(row).getByRole('cell', { name: 'Dacia Logan' })).toBeInTheDocument();
    expect(within(row).getByRole('cell', { name: 'No' })).toBeInTheDocument();
  });

  it('asks a page at a time and shows the next one on Load more (issue 54)', async () => {
    const carol = makeUser({ id: 3, username: 'carol', email: 'carol@example.com', vehicles: [] });
    const { user, fetchMock } = renderAdmin({
      'GET /api/admin/users': (url) =>
        new URL(url, 'http://x').searchParams.get('cursor') === '2'
          ? jsonResponse([carol])
          : new Response(JSON.stringify([bob]), {
              headers: { 'Content-Type': 'application/json', 'X-Next-Cursor': '2' },
            }),
    });
    await screen.findByRole('cell', { name: 'bob' });
    expect(screen.queryByRole('cell', { name: 'carol' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('cell', { name: 'carol' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'bob' })).toBeInTheDocument();
    // The last page said no next one: no button.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument());
    const asked = fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.includes('/api/admin/users'));
    expect(asked.every((u) => u.includes('limit=100'))).toBe(true);
  });

  it("requires username, email and, for a new user, a password ('Password required for new users!')", async () => {
    const { user, fetchMock } = renderAdmin();
    await screen.findByRole('cell', { name: 'bob' });
    await user.click(screen.getByRole('button', { name: 'Add user' }));
    const dialog = screen.getByRole('dialog', { name: 'Add user' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByLabelText('Username')).toHaveAccessibleDescription('Username is required.');
    expect(within(dialog).getByLabelText('Email')).toHaveAccessibleDescription('Email is required.');
    expect(within(dialog).getByLabelText('Password')).toHaveAccessibleDescription(
      'Password required for new users!',
    );
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(0);
  });

  it('does not ask for a password when editing', async () => {
    const { user } = renderAdmin();
    await user.click(await screen.findByRole('button', { name: 'Edit bob' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit user' });
    expect(within(dialog).getByLabelText('Username')).toHaveValue('bob');
    expect(within(dialog).queryByLabelText('Password')).not.toBeInTheDocument();
  });

  it('keeps the modal open with what was typed and shows server field errors next to fields', async () => {
    const { user } = renderAdmin({
      'POST /api/admin/users': () =>
        jsonResponse({ code: 'EMAIL_TAKEN', message: 'Email taken', details: [{ field: 'email' }] }, 409),
    });
    await screen.findByRole('cell', { name: 'bob' });
    await user.click(screen.getByRole('button', { name: 'Add user' }));
    const dialog = screen.getByRole('dialog', { name: 'Add user' });
    await user.type(within(dialog).getByLabelText('Username'), 'carol');
    await user.type(within(dialog).getByLabelText('Email'), 'bob@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'secret-pass-1');
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'ADMIN');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This email is already registered.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Add user' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Username')).toHaveValue('carol');
    expect(within(dialog).getByLabelText('Role')).toHaveValue('ADMIN');
  });

  it("shows 'Error: {message}' for other failures", async () => {
    const { user } = renderAdmin({
      'PUT /api/admin/users/2': () =>
        jsonResponse({ code: 'LAST_ADMIN', message: 'The last admin cannot be demoted.' }, 409),
    });
    await user.click(await screen.findByRole('button', { name: 'Edit bob' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit user' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText(
        'Error: The last active administrator cannot be deleted, demoted or suspended.',
      ),
    ).toBeInTheDocument();
  });

  it('closes the modal on Escape', async () => {
    const { user } = renderAdmin();
    await screen.findByRole('cell', { name: 'bob' });
    await user.click(screen.getByRole('button', { name: 'Add user' }));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('asks before deleting and deletes on confirmation', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const { user, fetchMock } = renderAdmin({
      'DELETE /api/admin/users/2': () => new Response(null, { status: 204 }),
    });
    await user.click(await screen.findByRole('button', { name: 'Delete bob' }));
    expect(confirm).toHaveBeenCalledWith('Delete this user?');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Delete bob' }));
    expect(await screen.findByText('User bob deleted.')).toBeInTheDocument();
    expect(
      fetchMock.mock.calls.some(([url, init]) => init?.method === 'DELETE' && url === '/api/admin/users/2'),
    ).toBe(true);
  });

  it('searches on the server after the user stops typing', async () => {
    const { user, fetchMock } = renderAdmin();
    await screen.findByRole('cell', { name: 'bob' });
    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'bo');
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain('/api/admin/users?q=bo&limit=100'),
    );
    expect(fetchMock.mock.calls.map(([url]) => String(url))).not.toContain('/api/admin/users?q=b&limit=100');
  });
});
