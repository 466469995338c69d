import type { QueryClient } from '@tanstack/react-query';
import { lazy } from 'react';
import { matchPath, Route, Routes } from 'react-router-dom';
import { FIRST_PAGES } from './first-pages';
import { GuestOnly, RequireAdmin, RequireAuth } from './guards';
import { Layout } from './Layout';

// Every page is its own chunk: the first load only carries the shell.
const load = {
  home: () => import('../features/home/pages/HomePage'),
  vehicles: () => import('../features/vehicles/pages/VehiclesPage'),
  fuel: () => import('../features/records/pages/FuelPage'),
  marketplace: () => import('../features/marketplace/pages/MarketplacePage'),
};
const HomePage = lazy(load.home);
const LoginPage = lazy(() => import('../features/auth/pages/LoginPage'));
const RegisterPage = lazy(() => import('../features/auth/pages/RegisterPage'));
const ForgotPasswordPage = lazy(() => import('../features/auth/pages/ForgotPasswordPage'));
const ResetPasswordPage = lazy(() => import('../features/auth/pages/ResetPasswordPage'));
const GdprPage = lazy(() => import('../features/gdpr/pages/GdprPage'));
const SettingsPage = lazy(() => import('../features/users/pages/SettingsPage'));
const AdminUsersPage = lazy(() => import('../features/users/pages/AdminUsersPage'));
const MarketplacePage = lazy(load.marketplace);
const ChatPage = lazy(() => import('../features/ai/pages/ChatPage'));
const VehiclesPage = lazy(load.vehicles);
const InsurancePage = lazy(() => import('../features/records/pages/InsurancePage'));
const ExpensesPage = lazy(() => import('../features/records/pages/ExpensesPage'));
const FuelPage = lazy(load.fuel);
const RevisionPage = lazy(() => import('../features/records/pages/RevisionPage'));
const RenewalsPage = lazy(() => import('../features/renewals/pages/RenewalsPage'));
// Analytics pages carry chart.js in their own chunks.
const AnalyticsIndexPage = lazy(() => import('../features/analytics/pages/AnalyticsIndexPage'));
const VehicleAnalyticsPage = lazy(() => import('../features/analytics/pages/VehicleAnalyticsPage'));
const UserAnalyticsPage = lazy(() => import('../features/analytics/pages/UserAnalyticsPage'));
const AdminAnalyticsPage = lazy(() => import('../features/analytics/pages/AdminAnalyticsPage'));
const NotFoundPage = lazy(() => import('../features/home/pages/NotFoundPage'));

/** A page module may name the data its first screen shows, to fetch it before it renders. */
type PrefetchingPage = {
  default: unknown;
  prefetch?: (client: QueryClient, params: Record<string, string | undefined>) => void;
};

/** The chunk of each first page (first-pages.ts lists them and what their first screen needs). */
const FIRST_PAGE_LOADERS: Record<string, () => Promise<PrefetchingPage>> = {
  '/': load.home,
  '/vehicles': load.vehicles,
  '/fuel/:vehicleId': load.fuel,
  '/marketplace': load.marketplace,
};

/**
 * At start, before the translations arrive (the shell waits for them): the page's chunk, then its
 * first data for a signed-in user, so chunk, data and translations download side by side.
 */
export function preloadFirstPage(pathname: string, client: QueryClient, signedIn: boolean): void {
  for (const { pattern } of FIRST_PAGES) {
    const match = matchPath(pattern, pathname);
    const loader = FIRST_PAGE_LOADERS[pattern];
    if (!match || !loader) continue;
    void loader().then(
      (page) => {
        if (signedIn) page.prefetch?.(client, match.params);
      },
      () => undefined, // the route's own lazy() reports a chunk that fails
    );
    return;
  }
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<HomePage />} />
        <Route element={<GuestOnly />}>
          <Route path="login" element={<LoginPage />} />
          <Route path="register" element={<RegisterPage />} />
        </Route>
        <Route path="forgot-password" element={<ForgotPasswordPage />} />
        <Route path="reset-password" element={<ResetPasswordPage />} />
        <Route path="gdpr" element={<GdprPage />} />

        <Route element={<RequireAuth />}>
          <Route path="settings" element={<SettingsPage />} />
          <Route path="vehicles" element={<VehiclesPage />} />
          <Route path="marketplace" element={<MarketplacePage />} />
          <Route path="ai-chat" element={<ChatPage />} />
          <Route path="analytics/user" element={<UserAnalyticsPage />} />
          <Route path="analytics" element={<AnalyticsIndexPage />} />
          <Route path="analytics/:vehicleId" element={<VehicleAnalyticsPage />} />
          <Route path="insurance" element={<InsurancePage />} />
          <Route path="insurance/:vehicleId" element={<InsurancePage />} />
          <Route path="expenses" element={<ExpensesPage />} />
          <Route path="expenses/:vehicleId" element={<ExpensesPage />} />
          <Route path="fuel" element={<FuelPage />} />
          <Route path="fuel/:vehicleId" element={<FuelPage />} />
          <Route path="revision" element={<RevisionPage />} />
          <Route path="revision/:vehicleId" element={<RevisionPage />} />
          <Route path="renewals/:vehicleId" element={<RenewalsPage />} />
        </Route>

        <Route element={<RequireAdmin />}>
          <Route path="admin/users" element={<AdminUsersPage />} />
          <Route path="analytics/admin" element={<AdminAnalyticsPage />} />
        </Route>

        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
