import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useStoredUser } from '../lib/session';

/** Logged-in only: without a stored user record, go to /login. */
export function RequireAuth() {
  const user = useStoredUser();
  const location = useLocation();
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

/** Admin only: everybody else (logged out included, spec §2) goes to /. */
export function RequireAdmin() {
  const user = useStoredUser();
  if (user?.role !== 'ADMIN') return <Navigate to="/" replace />;
  return <Outlet />;
}

/** /login and /register: a logged-in user goes to /. */
export function GuestOnly() {
  const user = useStoredUser();
  if (user) return <Navigate to="/" replace />;
  return <Outlet />;
}
