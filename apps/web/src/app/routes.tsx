import type { QueryClient } from '@tanstack/react-query';
import { lazy } from 'react';
import { matchPath, Route, Routes } from 'react-router-dom';
import { FIRST_PAGES } from './first-pages';
import { GuestOnly, RequireAdmin, RequireAuth } from './guards';
import { Layout } from './Layout';
import { Preloaded, preloadable } from './preloaded-lazy';

// Every page is its own chunk: the first load only carries the shell.
// The first pages render at once when preloadFirstPage already has their chunk.
const home = preloadable(() => import('../features/home/pages/HomePage'));
const vehicles = preloadable(() => import('../features/vehicles/pages/VehiclesPage'));
const fuel = preloadable(() => import('../features/records/pages/FuelPage'));
const marketplace = preloadable(() => import('../features/marketplace/pages/MarketplacePage'));
const LoginPage = lazy(() => import('../features/auth/pages/LoginPage'));
const RegisterPage = lazy(() => import('../features/auth/pages/RegisterPage'));
const ForgotPasswordPage = lazy(() => import('../features/auth/pages/ForgotPasswordPage'));
const ResetPasswordPage = lazy(() => import('../features/auth/pages/ResetPasswordPage'));
// Sign in with OpenID Connect (issue 53): where the server's callback sends the browser.
const oidcPage = (name: 'OidcCompletePage' | 'OidcLinkPage' | 'OidcRefusedPage') =>
  lazy(() => import('../features/auth/pages/OidcPages').then((m) => ({ default: m[name] })));
const OidcCompletePage = oidcPage('OidcCompletePage');
const OidcLinkPage = oidcPage('OidcLinkPage');
const OidcRefusedPage = oidcPage('OidcRefusedPage');
const GdprPage = lazy(() => import('../features/gdpr/pages/GdprPage'));
const SettingsPage = lazy(() => import('../features/users/pages/SettingsPage'));
const AdminUsersPage = lazy(() => import('../features/users/pages/AdminUsersPage'));
const ChatPage = lazy(() => import('../features/ai/pages/ChatPage'));
const InsurancePage = lazy(() => import('../features/records/pages/InsurancePage'));
const ExpensesPage = lazy(() => import('../features/records/pages/ExpensesPage'));
const RevisionPage = lazy(() => import('../features/records/pages/RevisionPage'));
const RenewalsPage = lazy(() => import('../features/renewals/pages/RenewalsPage'));
// A car's papers (issue 52): every car's on one screen, one car's to manage, one document to show.
// Papers and a document are first pages too: opened from the home screen at a roadside stop, with
// no signal, their chunk must not wait for the app to render before it is asked for.
const papers = preloadable(() => import('../features/documents/pages/PapersPage'));
const VehicleDocumentsPage = lazy(() => import('../features/documents/pages/VehicleDocumentsPage'));
const documentPage = preloadable(() => import('../features/documents/pages/DocumentPage'));
// Analytics pages carry chart.js in their own chunks.
const AnalyticsIndexPage = lazy(() => import('../features/analytics/pages/AnalyticsIndexPage'));
const VehicleAnalyticsPage = lazy(() => import('../features/analytics/pages/VehicleAnalyticsPage'));
const UserAnalyticsPage = lazy(() => import('../features/analytics/pages/UserAnalyticsPage'));
const AdminAnalyticsPage = lazy(() => import('../features/analytics/pages/AdminAnalyticsPage'));
const NotFoundPage = lazy(() => import('../features/home/pages/NotFoundPage'));

/** A page module may name the data its first screen shows, to fetch it before it renders. */
type PrefetchingPage = {
  default: unknown;
  prefetch?: (client: QueryClient, params: Record<string, string | undefined>) => Promise<unknown>;
};

/** The chunk of each first page (first-pages.ts lists them and what their first screen needs). */
const FIRST_PAGE_LOADERS: Record<string, () => Promise<PrefetchingPage>> = {
  '/': home.load,
  '/vehicles': vehicles.load,
  '/fuel/:vehicleId': fuel.load,
  '/marketplace': marketplace.load,
  '/papers': papers.load,
  '/papers/:vehicleId/:docId': documentPage.load,
};

/**
 * At start, before the translations arrive (the shell waits for them): the page's chunk, then its
 * first data for a signed-in user, so chunk, data and translations download side by side. Settles
 * once both are here (main.tsx renders then).
 */
export function preloadFirstPage(pathname: string, client: QueryClient, signedIn: boolean): Promise<void> {
  for (const { pattern, answeredOffline } of FIRST_PAGES) {
    const match = matchPath(pattern, pathname);
    const loader = FIRST_PAGE_LOADERS[pattern];
    if (!match || !loader) continue;
    return loader().then(
      async (page) => {
        if (!signedIn) return;
        const data = page.prefetch?.(client, match.params);
        // Offline, a query waits for the network: nothing to wait for, unless the service worker
        // answers it from the device (the offline wallet's papers).
        if (typeof navigator === 'undefined' || navigator.onLine || answeredOffline) await data;
      },
      () => undefined, // the route's own lazy() reports a chunk that fails
    );
  }
  return Promise.resolve();
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<Preloaded page={home} />} />
        <Route element={<GuestOnly />}>
          <Route path="login" element={<LoginPage />} />
          <Route path="register" element={<RegisterPage />} />
        </Route>
        <Route path="forgot-password" element={<ForgotPasswordPage />} />
        <Route path="reset-password" element={<ResetPasswordPage />} />
        <Route path="oidc/complete" element={<OidcCompletePage />} />
        <Route path="oidc/link" element={<OidcLinkPage />} />
        <Route path="oidc/refused" element={<OidcRefusedPage />} />
        <Route path="gdpr" element={<GdprPage />} />

        <Route element={<RequireAuth />}>
          <Route path="settings" element={<SettingsPage />} />
          <Route path="vehicles" element={<Preloaded page={vehicles} />} />
          <Route path="marketplace" element={<Preloaded page={marketplace} />} />
          <Route path="ai-chat" element={<ChatPage />} />
          <Route path="analytics/user" element={<UserAnalyticsPage />} />
          <Route path="analytics" element={<AnalyticsIndexPage />} />
          <Route path="analytics/:vehicleId" element={<VehicleAnalyticsPage />} />
          <Route path="insurance" element={<InsurancePage />} />
          <Route path="insurance/:vehicleId" element={<InsurancePage />} />
          <Route path="expenses" element={<ExpensesPage />} />
          <Route path="expenses/:vehicleId" element={<ExpensesPage />} />
          <Route path="fuel" element={<Preloaded page={fuel} />} />
          <Route path="fuel/:vehicleId" element={<Preloaded page={fuel} />} />
          <Route path="revision" element={<RevisionPage />} />
          <Route path="revision/:vehicleId" element={<RevisionPage />} />
          <Route path="renewals/:vehicleId" element={<RenewalsPage />} />
          <Route path="papers" element={<Preloaded page={papers} />} />
          <Route path="papers/:vehicleId/:docId" element={<Preloaded page={documentPage} />} />
          <Route path="documents/:vehicleId" element={<VehicleDocumentsPage />} />
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
