import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeUser, mockApi, renderPage } from '../../../test/utils';
import RegisterPage from './RegisterPage';

async function fillForm(
  user: ReturnType<typeof renderPage>['user'],
  values: { username?: string; email?: string; password?: string; confirm?: string; consent?: boolean },
) {
  if (values.username) await user.type(screen.getByLabelText('Username'), values.username);
  if (values.email) await user.type(screen.getByLabelText('Email'), values.email);
  if (values.password) await user.type(screen.getByLabelText('Password'), values.password);
  if (values.confirm) await user.type(screen.getByLabelText('Confirm password'), values.confirm);
  if (values.consent) await user.click(screen.getByRole('checkbox', { name: /I accept the GDPR agreement/ }));
}

describe('RegisterPage', () => {
  it('shows every required-field message next to its field', async () => {
    const { user } = renderPage(<RegisterPage />, { path: '/register', route: '/register' });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByLabelText('Username')).toHaveAccessibleDescription('Username is required.');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email is required.');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Password is required.');
    expect(screen.getByRole('checkbox', { name: /GDPR agreement/ })).toHaveAccessibleDescription(
      'You must accept the GDPR agreement.',
    );
  });

  it("says 'Passwords do not match.' and that consent is required", async () => {
    const fetchMock = mockApi({});
    const { user } = renderPage(<RegisterPage />, { path: '/register', route: '/register' });
    await fillForm(user, {
      username: 'alice',
      email: 'alice@example.com',
      password: 'secret-pass-1',
      confirm: 'secret-pass-2',
    });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByLabelText('Confirm password')).toHaveAccessibleDescription('Passwords do not match.');
    expect(screen.getByText('You must accept the GDPR agreement.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('links the consent label to /gdpr in a new tab', () => {
    renderPage(<RegisterPage />, { path: '/register', route: '/register' });
    const link = screen.getByRole('link', { name: 'GDPR agreement' });
    expect(link).toHaveAttribute('href', '/gdpr');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', expect.stringContaining('noopener'));
  });

  it('shows server field errors next to the field and keeps what was typed', async () => {
    mockApi({
      'POST /api/auth/register': () =>
        jsonResponse(
          {
            code: 'VALIDATION_FAILED',
            message: 'Invalid request',
            details: [{ field: 'email', message: 'This email domain is not accepted.' }],
          },
          400,
        ),
    });
    const { user } = renderPage(<RegisterPage />, { path: '/register', route: '/register' });
    await fillForm(user, {
      username: 'alice',
      email: 'alice@example.com',
      password: 'secret-pass-1',
      confirm: 'secret-pass-1',
      consent: true,
    });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('This email domain is not accepted.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('This email domain is not accepted.');
    expect(screen.getByLabelText('Username')).toHaveValue('alice');
    expect(screen.getByLabelText('Email')).toHaveValue('alice@example.com');
    expect(screen.getByLabelText('Password')).toHaveValue('secret-pass-1');
    expect(screen.getByLabelText('Confirm password')).toHaveValue('secret-pass-1');
    expect(screen.getByRole('checkbox', { name: /GDPR agreement/ })).toBeChecked();
  });

  it('shows a taken username next to the username field', async () => {
    mockApi({
      'POST /api/auth/register': () =>
        jsonResponse(
          { code: 'USERNAME_TAKEN', message: 'Username taken', details: [{ field: 'username' }] },
          409,
        ),
    });
    const { user } = renderPage(<RegisterPage />, { path: '/register', route: '/register' });
    await fillForm(user, {
      username: 'alice',
      email: 'alice@example.com',
      password: 'secret-pass-1',
      confirm: 'secret-pass-1',
      consent: true,
    });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByLabelText('Username')).toHaveAccessibleDescription(
      'This username is already taken.',
    );
    expect(screen.getByLabelText('Username')).toHaveValue('alice');
  });

  it('on success stores the session, alerts and goes to /login', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const fetchMock = mockApi({
      'POST /api/auth/register': () => jsonResponse({ user: makeUser(), csrfToken: 'csrf-new' }, 201),
    });
    const { user } = renderPage(<RegisterPage />, { path: '/register', route: '/register' });
    await fillForm(user, {
      username: 'alice',
      email: 'alice@example.com',
      password: 'secret-pass-1',
      confirm: 'secret-pass-1',
      consent: true,
    });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
    expect(alert).toHaveBeenCalledWith('Account created successfully!');
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({
      username: 'alice',
      offlineLogin: 'true',
    });
    expect(localStorage.getItem('token')).toBe('csrf-new');
    const body = JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body));
    expect(body).toEqual({
      username: 'alice',
      email: 'alice@example.com',
      password: 'secret-pass-1',
      gdprConsent: true,
      language: 'en',
    });
  });
});
