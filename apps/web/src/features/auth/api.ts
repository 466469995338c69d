import type { Language, MessageResponse, SessionResponse } from '@evdra/domain';
import { useMutation } from '@tanstack/react-query';
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
