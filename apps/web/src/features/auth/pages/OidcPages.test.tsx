import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getStoredUser, getToken } from '../../../lib/session';
import { jsonResponse, makeUser, mockApi, renderPage } from '../../../test/utils';
import LoginPage from './LoginPage';
import { OidcCompletePage, OidcLinkPage, OidcRefusedPage } from './OidcPages';

/** Sign in with OpenID Connect (issue 53): the login page's button, and the pages the callback leads to. */
describe('LoginPage with an identity provider', () => {
  it('shows "Sign in with …" above the password form when the server offers it', async () => {
    mockApi({
      'GET /api/auth/providers': () =>
        jsonResponse({ oidc: { buttonText: 'Authentik' }, passwordLogin: true }),
    });
    renderPage(<LoginPage />, { path: '/login', route: '/login' });
    const button = await screen.findByRole('link', { name: 'Sign in with Authentik' });
    expect(button).toHaveAttribute('href', '/api/auth/oidc/start');
    expect(screen.getByLabelText('Username or email')).toBeInTheDocument();
    expect(screen.getByText('or with your password')).toBeInTheDocument();
  });

  it('hides the password form when password login is off', async () => {
    mockApi({
      'GET /api/auth/providers': () =>
        jsonResponse({ oidc: { buttonText: 'Keycloak' }, passwordLogin: false }),
    });
    renderPage(<LoginPage />, { path: '/login', route: '/login' });
    expect(await screen.findByRole('link', { name: 'Sign in with Keycloak' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Username or email')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Login' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Register' })).not.toBeInTheDocument();
  });

  it('without a provider: the password form alone, no button', async () => {
    const fetchMock = mockApi({
      'GET /api/auth/providers': () => jsonResponse({ oidc: null, passwordLogin: true }),
    });
    renderPage(<LoginPage />, { path: '/login', route: '/login' });
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.getByLabelText('Username or email')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Sign in with/ })).not.toBeInTheDocument();
  });
});

describe('/oidc/complete', () => {
  it('keeps the session the callback set (user and CSRF token) and goes to /', async () => {
    mockApi({
      'POST /api/auth/refresh': () =>
        jsonResponse({ user: makeUser({ username: 'oidc-alice' }), csrfToken: 'csrf-oidc' }),
    });
    renderPage(<OidcCompletePage />, { path: '/oidc/complete', route: '/oidc/complete' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(getStoredUser()?.username).toBe('oidc-alice');
    expect(getToken()).toBe('csrf-oidc');
  });
});

describe('/oidc/link', () => {
  it('names the account, refuses a wrong password, links with the right one', async () => {
    let tries = 0;
    mockApi({
      'GET /api/auth/oidc/link': () => jsonResponse({ email: 'alice@example.com', username: 'alice' }),
      'POST /api/auth/oidc/link': () => {
        tries += 1;
        return tries === 1
          ? jsonResponse({ code: 'INVALID_CREDENTIALS', message: 'Wrong username or password.' }, 401)
          : jsonResponse({ user: makeUser({ username: 'alice' }), csrfToken: 'csrf-link' });
      },
    });
    const { user } = renderPage(<OidcLinkPage />, { path: '/oidc/link', route: '/oidc/link' });
    expect(await screen.findByText(/already uses the e-mail alice@example\.com/)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Password'), 'wrong one');
    await user.click(screen.getByRole('button', { name: 'Link and sign in' }));
    expect(await screen.findByText('Wrong username or password.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'correct horse 1');
    await user.click(screen.getByRole('button', { name: 'Link and sign in' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(getToken()).toBe('csrf-link');
  });

  it('an expired sign-in says so and leads back to login', async () => {
    mockApi({
      'GET /api/auth/oidc/link': () => jsonResponse({ code: 'OIDC_LINK_EXPIRED', message: 'expired' }, 400),
    });
    renderPage(<OidcLinkPage />, { path: '/oidc/link', route: '/oidc/link' });
    expect(await screen.findByText('This sign-in has expired. Please sign in again.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login');
  });
});

describe('/oidc/refused', () => {
  it('explains that this server does not make accounts at sign-in', () => {
    renderPage(<OidcRefusedPage />, { path: '/oidc/refused', route: '/oidc/refused?reason=not-registered' });
    expect(screen.getByRole('heading', { name: 'Sign-in refused' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(/does not create accounts at sign-in/);
    expect(screen.getByRole('link', { name: 'Try again' })).toHaveAttribute('href', '/api/auth/oidc/start');
  });

  it('an unknown reason reads as a failed sign-in', () => {
    renderPage(<OidcRefusedPage />, { path: '/oidc/refused', route: '/oidc/refused?reason=<script>' });
    expect(screen.getByRole('alert')).toHaveTextContent(/could not be completed/);
  });
});
