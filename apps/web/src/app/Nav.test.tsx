import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, renderApp, setOnline, storeUser } from '../test/utils';

describe('navigation', () => {
  it('offers Login and Register when logged out', async () => {
    renderApp('/');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Login' })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Register' })).toBeInTheDocument();
    expect(within(nav).queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Welcome to Evdra' })).toBeInTheDocument();
  });

  it('shows a USER their links and who is logged in', () => {
    storeUser({ username: 'alice' });
    renderApp('/');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    for (const name of ['Home', 'Vehicles', 'Market', 'AI assistant', 'My Analytics', 'Settings']) {
      expect(within(nav).getByRole('link', { name })).toBeInTheDocument();
    }
    expect(within(nav).queryByRole('link', { name: 'Manage Users' })).not.toBeInTheDocument();
    expect(within(nav).getByText('alice')).toBeInTheDocument();
    expect(within(nav).getByText(/Logged in as/)).toBeInTheDocument();
    expect(within(nav).getByRole('button', { name: 'Notifications' })).toBeInTheDocument();
  });

  it('shows an ADMIN Manage Users and Global Analytics instead of My Analytics', () => {
    storeUser({ role: 'ADMIN' });
    renderApp('/');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Manage Users' })).toHaveAttribute('href', '/admin/users');
    expect(within(nav).getByRole('link', { name: 'Global Analytics' })).toHaveAttribute(
      'href',
      '/analytics/admin',
    );
    expect(within(nav).queryByRole('link', { name: 'My Analytics' })).not.toBeInTheDocument();
  });

  it('logs out even when the server call fails: forgets the user and token, goes to /login', async () => {
    storeUser();
    mockApi({});
    const { user } = renderApp('/');
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
    expect(localStorage.getItem('user')).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
    expect(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Login' }),
    ).toBeVisible();
  });

  it('shows the offline notice while offline', () => {
    setOnline(false);
    renderApp('/');
    expect(screen.getByText('You are offline')).toBeInTheDocument();
  });

  it('shows Install App only after the browser offers it', async () => {
    renderApp('/');
    expect(screen.queryByRole('button', { name: 'Install App' })).not.toBeInTheDocument();
    act(() => {
      window.dispatchEvent(new Event('beforeinstallprompt'));
    });
    expect(await screen.findByRole('button', { name: 'Install App' })).toBeInTheDocument();
  });

  it('opens the side menu and closes it on Escape', async () => {
    storeUser();
    const { user } = renderApp('/');
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    const drawer = screen.getByRole('dialog', { name: 'Menu' });
    expect(within(drawer).getByRole('link', { name: 'Vehicles' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Menu' })).not.toBeInTheDocument();
  });

  it('closes the side menu on navigation', async () => {
    storeUser();
    const { user } = renderApp('/');
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Menu' })).getByRole('link', { name: 'Vehicles' }),
    );
    expect(screen.queryByRole('dialog', { name: 'Menu' })).not.toBeInTheDocument();
    // The router keeps the old page until the lazy page has loaded.
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/vehicles'));
    expect(await screen.findByRole('heading', { name: 'Vehicles' })).toBeInTheDocument();
  });

  it('shows the copyright in the footer', () => {
    renderApp('/');
    expect(screen.getByText(`© ${new Date().getFullYear()} Evdra`)).toBeInTheDocument();
  });
});
