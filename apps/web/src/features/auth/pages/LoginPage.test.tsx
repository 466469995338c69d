import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, makeUser, mockApi, renderPage, setOnline, storeUser } from '../../../test/utils';
import LoginPage from './LoginPage';

const renderLogin = () => renderPage(<LoginPage />, { path: '/login', route: '/login' });

describe('LoginPage', () => {
  it('requires username and password, with the message next to each field', async () => {
    const fetchMock = mockApi({});
    const { user } = renderLogin();
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(screen.getByLabelText('Username or email')).toHaveAccessibleDescription('Username is required.');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Password is required.');
    // Only the sign-in options were asked for (GET /api/auth/providers), no login was sent.
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')).toEqual([]);
  });

  it('toggles password visibility', async () => {
    const { user } = renderLogin();
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
  });

  it("shows '❌ Login failed.' on wrong credentials and keeps the username", async () => {
    mockApi({
      'POST /api/auth/login': () => jsonResponse({ code: 'INVALID_CREDENTIALS', message: 'Invalid' }, 401),
    });
    const { user } = renderLogin();
    await user.type(screen.getByLabelText('Username or email'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('❌ Login failed.')).toBeInTheDocument();
    expect(screen.getByLabelText('Username or email')).toHaveValue('alice');
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });

  it('explains a suspended account', async () => {
    mockApi({
      'POST /api/auth/login': () => jsonResponse({ code: 'ACCOUNT_SUSPENDED', message: 'Suspended' }, 403),
    });
    const { user } = renderLogin();
    await user.type(screen.getByLabelText('Username or email'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'secret-pass-1');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('❌ Login failed.')).toBeInTheDocument();
    expect(screen.getByText('Your account is suspended.')).toBeInTheDocument();
  });

  it('on success stores user (with the offline flag) and token, then goes to /', async () => {
    mockApi({
      'POST /api/auth/login': () =>
        jsonResponse({ user: makeUser({ role: 'ADMIN', currency: 'RON' }), csrfToken: 'csrf-9' }),
    });
    const { user } = renderLogin();
    await user.type(screen.getByLabelText('Username or email'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'secret-pass-1');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    // The page moves on once the answer is in: wait for it (the location is there from the start).
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toEqual({
      id: 1,
      username: 'alice',
      email: 'alice@example.com',
      role: 'ADMIN',
      language: 'en',
      // The reader's money and units, so every page formats amounts and measures offline too.
      currency: 'RON',
      distanceUnit: 'km',
      volumeUnit: 'L',
      consumptionUnit: 'L_100KM',
      offlineLogin: 'true',
    });
    expect(localStorage.getItem('token')).toBe('csrf-9');
  });

  it('offline without a permitted stored login: refuses and calls nothing', async () => {
    setOnline(false);
    const fetchMock = mockApi({});
    const { user } = renderLogin();
    await user.type(screen.getByLabelText('Username or email'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'secret-pass-1');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(
      screen.getByText('❌ Offline login unavailable. Please connect to the internet.'),
    ).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });

  it("offline with a stored user whose offline flag is not 'true': refuses", async () => {
    setOnline(false);
    storeUser({ offlineLogin: 'false' });
    const { user } = renderLogin();
    await user.type(screen.getByLabelText('Username or email'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'secret-pass-1');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(
      screen.getByText('❌ Offline login unavailable. Please connect to the internet.'),
    ).toBeInTheDocument();
  });

  it("offline with a stored user whose offline flag is 'true': goes to /", async () => {
    setOnline(false);
    storeUser({ offlineLogin: 'true' });
    const fetchMock = mockApi({});
    const { user } = renderLogin();
    await user.type(screen.getByLabelText('Username or email'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'secret-pass-1');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
