import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockApi, renderApp, storeUser } from '../test/utils';

describe('route guards', () => {
  it('sends a visitor without a stored user from a logged-in page to /login', async () => {
    renderApp('/settings');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });

  it('sends a visitor from a vehicle page to /login', async () => {
    renderApp('/fuel/12');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
  });

  it('sends a USER away from /admin/users to /', async () => {
    storeUser({ role: 'USER', username: 'alice' });
    renderApp('/admin/users');
    expect(await screen.findByRole('heading', { name: 'Welcome, alice!' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('sends a USER away from /analytics/admin to /', async () => {
    storeUser({ role: 'USER' });
    renderApp('/analytics/admin');
    expect(await screen.findByRole('heading', { name: 'Welcome, alice!' })).toBeInTheDocument();
  });

  it('sends a logged-out visitor from an admin page to /login', async () => {
    renderApp('/admin/users');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });

  it('lets an ADMIN open /admin/users', async () => {
    storeUser({ role: 'ADMIN', username: 'root' });
    mockApi({ 'GET /api/admin/users': () => jsonResponse([]) });
    renderApp('/admin/users');
    expect(await screen.findByRole('heading', { name: 'Manage Users', level: 1 })).toBeInTheDocument();
  });

  it('sends a logged-in user from /login to /', async () => {
    storeUser();
    renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'Welcome, alice!' })).toBeInTheDocument();
  });

  it('shows a logged-in page with its title', async () => {
    storeUser();
    mockApi({});
    renderApp('/ai-chat');
    expect(await screen.findByRole('heading', { name: 'AI assistant' })).toBeInTheDocument();
  });

  it('shows a logged-in vehicle page (a vehicle that is not yours is not found)', async () => {
    storeUser();
    mockApi({});
    renderApp('/insurance/3');
    expect(await screen.findByRole('heading', { name: 'Vehicle not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to vehicles' })).toHaveAttribute('href', '/vehicles');
  });
});
