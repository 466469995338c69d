import type { AuthProviders, Language, MessageResponse, OidcLinkInfo, SessionResponse } from '@evdra/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';

export interface LoginInput {
  username: string;
  password: string;
}

export interface RegisterInput {
  username: string;
  email: string;
  password: string;
  gdprConsent: true;
  language?: Language;
}

export const login = (body: LoginInput) => api<SessionResponse>('/api/auth/login', { method: 'POST', body });

export const register = (body: RegisterInput) =>
  api<SessionResponse>('/api/auth/register', { method: 'POST', body });

export const forgotPassword = (email: string) =>
  api<MessageResponse>('/api/auth/forgot-password', { method: 'POST', query: { email } });

export const resetPassword = (body: { token: string; password: string }) =>
  api<MessageResponse>('/api/auth/reset-password', { method: 'POST', body });

export const useLogin = () => useMutation({ mutationFn: login });
export const useRegister = () => useMutation({ mutationFn: register });
export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword });
export const useResetPassword = () => useMutation({ mutationFn: resetPassword });

/**
 * How this server lets people sign in (issue 53): the "Sign in with …" button, and whether the
 * password form is shown. Not asked offline (only the stored user's offline login works then).
 */
export const useAuthProviders = () =>
  useQuery({
    queryKey: ['auth', 'providers'],
    queryFn: () => api<AuthProviders>('/api/auth/providers'),
    enabled: typeof navigator === 'undefined' || navigator.onLine,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

/** Where the browser goes to sign in with the provider (a full page load: the server redirects). */
export const OIDC_START_URL = '/api/auth/oidc/start';

export const useOidcLinkInfo = () =>
  useQuery({
    queryKey: ['auth', 'oidc-link'],
    queryFn: () => api<OidcLinkInfo>('/api/auth/oidc/link'),
    retry: false,
  });

export const useOidcLink = () =>
  useMutation({
    mutationFn: (password: string) =>
      api<SessionResponse>('/api/auth/oidc/link', { method: 'POST', body: { password } }),
  });
