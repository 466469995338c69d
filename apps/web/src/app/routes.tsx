import { lazy } from 'react';
import { Route, Routes } from 'react-router-dom';
import { GuestOnly, RequireAdmin, RequireAuth } from './guards';
import { Layout } from './Layout';

// Every page is its own chunk: the first load only carries the shell.
const HomePage = lazy(() => import('../features/home/pages/HomePage'));
const LoginPage = lazy(() => import('../features/auth/pages/LoginPage'));
const RegisterPage = lazy(() => import('../features/auth/pages/RegisterPage'));
const ForgotPasswordPage = lazy(() => import('../features/auth/pages/ForgotPasswordPage'));
const ResetPasswordPage = lazy(() => import('../features/auth/pages/ResetPasswordPage'));
const GdprPage = lazy(() => import('../features/gdpr/pages/GdprPage'));
const SettingsPage = lazy(() => import('../features/users/pages/SettingsPage'));
const AdminUsersPage = lazy(() => import('../features/users/pages/AdminUsersPage'));
const PlaceholderPage = lazy(() => import('../features/placeholders/pages/PlaceholderPage'));
const NotFoundPage = lazy(() => import('../features/home/pages/NotFoundPage'));

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
          <Route path="vehicles" element={<PlaceholderPage feature="vehicles" />} />
          <Route path="marketplace" element={<PlaceholderPage feature="marketplace" />} />
          <Route path="ai-chat" element={<PlaceholderPage feature="aiChat" />} />
          <Route path="analytics/user" element={<PlaceholderPage feature="userAnalytics" />} />
          <Route path="analytics" element={<PlaceholderPage feature="analytics" />} />
          <Route path="analytics/:vehicleId" element={<PlaceholderPage feature="analytics" />} />
          <Route path="insurance" element={<PlaceholderPage feature="insurance" />} />
          <Route path="insurance/:vehicleId" element={<PlaceholderPage feature="insurance" />} />
          <Route path="expenses" element={<PlaceholderPage feature="expenses" />} />
          <Route path="expenses/:vehicleId" element={<PlaceholderPage feature="expenses" />} />
          <Route path="fuel" element={<PlaceholderPage feature="fuel" />} />
          <Route path="fuel/:vehicleId" element={<PlaceholderPage feature="fuel" />} />
          <Route path="revision" element={<PlaceholderPage feature="revision" />} />
          <Route path="revision/:vehicleId" element={<PlaceholderPage feature="revision" />} />
        </Route>

        <Route element={<RequireAdmin />}>
          <Route path="admin/users" element={<AdminUsersPage />} />
          <Route path="analytics/admin" element={<PlaceholderPage feature="adminAnalytics" />} />
        </Route>

        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
