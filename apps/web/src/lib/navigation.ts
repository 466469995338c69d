/**
 * Lets non-React code (the API client) navigate inside the SPA. The app layout registers the
 * router's navigate function; without one (e.g. before the router mounts) we fall back to a
 * full page load.
 */
type NavigateFn = (to: string, options?: { replace?: boolean }) => void;

let navigateFn: NavigateFn | null = null;

export function registerNavigate(fn: NavigateFn | null): void {
  navigateFn = fn;
}

export function navigateTo(to: string): void {
  if (navigateFn) navigateFn(to, { replace: true });
  else window.location.assign(to);
}
