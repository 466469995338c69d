import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockApi, renderPage } from '../../../test/utils';
import ForgotPasswordPage from './ForgotPasswordPage';

const renderForgot = () =>
  renderPage(<ForgotPasswordPage />, { path: '/forgot-password', route: '/forgot-password' });

describe('ForgotPasswordPage', () => {
  it('rejects something that is not an email, next to the field', async () => {
    const fetchMock = mockApi({});
    const { user } = renderForgot();
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Please enter a valid email address.');
    expect(screen.getByLabelText('Email')).toHaveValue('not-an-email');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the email as a query parameter and confirms', async () => {
    const fetchMock = mockApi({
      'POST /api/auth/forgot-password': () =>
        jsonResponse({ message: 'If the account exists, a link was sent.' }),
    });
    const { user } = renderForgot();
    await user.type(screen.getByLabelText('Email'), 'alice@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Reset link sent! Check your inbox.')).toBeInTheDocument();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth/forgot-password?email=alice%40example.com');
  });

  it('says something went wrong when the server fails', async () => {
    mockApi({
      'POST /api/auth/forgot-password': () => jsonResponse({ code: 'INTERNAL', message: 'x' }, 500),
    });
    const { user } = renderForgot();
    await user.type(screen.getByLabelText('Email'), 'alice@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Something went wrong. Please try again.')).toBeInTheDocument();
  });
});
