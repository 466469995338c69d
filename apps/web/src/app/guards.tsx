import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useStoredUser } from '../lib/session';

/** Logged-in only: without a stored user record, go to /login. */
export function RequireAuth() {
  const user = useStoredUser();
  const location = useLocation();
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

/**
 * Admin only: a logged-in non-admin goes to / (spec §2); a logged-out visitor to /login, as on every
 * logged-in page (so logging out from an admin page lands on /login, as Logout promises).
 */
export function RequireAdmin() {
  const user = useStoredUser();
  if (!user) return <Navigate to="/login" replace />;
  if (user.role !== 'ADMIN') return <Navigate to="/" replace />;
  return <Outlet />;
}

/** /login and /register: a logged-in user goes to /. */
export function GuestOnly() {
  const user = useStoredUser();
  if (user) return <Navigate to="/" replace />;
  return <Outlet />;
}
