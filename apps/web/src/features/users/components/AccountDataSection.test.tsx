import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, makeUser, mockApi, renderPage, storeUser } from '../../../test/utils';
import SettingsPage from '../pages/SettingsPage';

describe('Settings: your data', () => {
  it('offers the data download and deletes the account only with the right password', async () => {
    storeUser();
    let attempts = 0;
    const fetchMock = mockApi({
      'GET /api/users/me': () => jsonResponse(makeUser()),
      'DELETE /api/account': () => {
        attempts += 1;
        return attempts === 1
          ? jsonResponse({ code: 'INVALID_CREDENTIALS', message: 'Wrong password.' }, 403)
          : new Response(null, { status: 204 });
      },
    });
    const { user } = renderPage(<SettingsPage />, { path: '/settings', route: '/settings' });
    const download = await screen.findByRole('link', { name: 'Download my data' });
    expect(download).toHaveAttribute('href', '/api/account/export');

    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete my account' });
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Your password'), 'wrong one');
    await user.click(confirm);
    expect(await within(dialog).findByText('Wrong password.')).toBeInTheDocument();
    expect(localStorage.getItem('user')).not.toBeNull();

    await user.clear(within(dialog).getByLabelText('Your password'));
    await user.type(within(dialog).getByLabelText('Your password'), 'correct horse 1');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await expect.poll(() => localStorage.getItem('user')).toBeNull();
    const calls = fetchMock.mock.calls.filter(([url]) => String(url) === '/api/account');
    expect(calls.map(([, init]) => JSON.parse(String(init?.body)))).toEqual([
      { password: 'wrong one' },
      { password: 'correct horse 1' },
    ]);
  }, 20_000);
});
