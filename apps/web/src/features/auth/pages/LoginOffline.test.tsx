import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, renderPage, setOnline, storeUser } from '../../../test/utils';
import LoginPage from './LoginPage';

const renderLogin = () => renderPage(<LoginPage />, { path: '/login', route: '/login' });
const UNAVAILABLE = '❌ Offline login unavailable. Please connect to the internet.';

/** Offline login (spec §4, §8; issue 10): only the stored user with the offline flag 'true'. */
describe('LoginPage offline', () => {
  it('refuses another username than the stored one', async () => {
    setOnline(false);
    storeUser({ username: 'alice', offlineLogin: 'true' });
    const fetchMock = mockApi({});
    const { user } = renderLogin();
    await user.type(screen.getByLabelText('Username or email'), 'mallory');
    await user.type(screen.getByLabelText('Password'), 'secret-pass-1');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText(UNAVAILABLE)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('accepts the stored user by email too', async () => {
    setOnline(false);
    storeUser({ username: 'alice', email: 'alice@example.com', offlineLogin: 'true' });
    mockApi({});
    const { user } = renderLogin();
    await user.type(screen.getByLabelText('Username or email'), 'Alice@Example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-pass-1');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it('server unreachable while the browser says online: the offline rule applies', async () => {
    setOnline(true);
    const { user } = renderLogin();
    mockApi({
      'POST /api/auth/login': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await user.type(screen.getByLabelText('Username or email'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'secret-pass-1');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText(UNAVAILABLE)).toBeInTheDocument();
  });
});
