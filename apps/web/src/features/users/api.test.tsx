import type { User } from '@evdra/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, makeUser, mockApi } from '../../test/utils';
import { userKeys, useUpdateMe } from './api';

// Issue 50: the server writes a car's AI reason and the AI summaries in the reader's language, money
// and units; after a change of those, the kept copies are read again (the others are kept).

function setup(before: User) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(userKeys.me, before);
  client.setQueryData(['vehicles', 'list'], [{ id: 1, aiScoreReason: 'Mașină mai veche: 10 ani.' }]);
  client.setQueryData(['ai-summary', '/ai-feedback/vehicle/1/fuel'], 'Consum real…');
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const { result } = renderHook(() => useUpdateMe(), { wrapper });
  const stale = () => ({
    vehicles: client.getQueryState(['vehicles', 'list'])?.isInvalidated,
    summary: client.getQueryState(['ai-summary', '/ai-feedback/vehicle/1/fuel'])?.isInvalidated,
  });
  return { result, stale };
}

const body = (u: User) => ({ username: u.username, email: u.email, language: u.language });

describe('useUpdateMe', () => {
  it.each([
    ['language', { language: 'en' as const }],
    ['currency', { currency: 'EUR' as const }],
    ['units', { distanceUnit: 'mi' as const }],
  ])('reads the AI texts again after a change of %s', async (_name, change) => {
    const before = makeUser({ language: 'ro', currency: 'RON' });
    const after = { ...before, ...change };
    mockApi({ 'PUT /api/users/me': () => jsonResponse(after) });
    const { result, stale } = setup(before);
    expect(stale()).toEqual({ vehicles: false, summary: false });
    await act(() => result.current.mutateAsync(body(after)));
    expect(stale()).toEqual({ vehicles: true, summary: true });
  });

  it('keeps them after a change of anything else', async () => {
    const before = makeUser({ language: 'ro', currency: 'RON' });
    const after = { ...before, username: 'alice2' };
    mockApi({ 'PUT /api/users/me': () => jsonResponse(after) });
    const { result, stale } = setup(before);
    await act(() => result.current.mutateAsync(body(after)));
    expect(stale()).toEqual({ vehicles: false, summary: false });
  });
});
