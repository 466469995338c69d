import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockApi, renderPage } from '../../../test/utils';
import ResetPasswordPage from './ResetPasswordPage';

const renderReset = (route = '/reset-password?token=abcdefghijklmnop') =>
  renderPage(<ResetPasswordPage />, { path: '/reset-password', route });

describe('ResetPasswordPage', () => {
  it('needs matching passwords', async () => {
    const fetchMock = mockApi({});
    const { user } = renderReset();
    await user.type(screen.getByLabelText('New password'), 'secret-pass-1');
    await user.type(screen.getByLabelText('Confirm new password'), 'secret-pass-2');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByLabelText('Confirm new password')).toHaveAccessibleDescription(
      'Passwords do not match.',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('posts the token and the new password, then links to /login', async () => {
    const fetchMock = mockApi({ 'POST /api/auth/reset-password': () => jsonResponse({ message: 'ok' }) });
    const { user } = renderReset();
    await user.type(screen.getByLabelText('New password'), 'secret-pass-1');
    await user.type(screen.getByLabelText('Confirm new password'), 'secret-pass-1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('link', { name: 'Go to login' })).toHaveAttribute('href', '/login');
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      token: 'abcdefghijklmnop',
      password: 'secret-pass-1',
    });
  });

  it('explains an invalid or expired link', async () => {
    mockApi({
      'POST /api/auth/reset-password': () =>
        jsonResponse({ code: 'INVALID_RESET_TOKEN', message: 'bad' }, 400),
    });
    const { user } = renderReset();
    await user.type(screen.getByLabelText('New password'), 'secret-pass-1');
    await user.type(screen.getByLabelText('Confirm new password'), 'secret-pass-1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('This reset link is invalid or has expired.')).toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toHaveValue('secret-pass-1');
  });

  it('says so when the link has no token', () => {
    renderReset('/reset-password');
    expect(screen.getByText(/This reset link is incomplete/)).toBeInTheDocument();
  });
});
