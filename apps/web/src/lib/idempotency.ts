import { useRef } from 'react';

function newKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

/**
 * One `Idempotency-Key` per form submission: retrying the same submission (same body) reuses the
 * key, so the server replays the first answer instead of creating a duplicate; changed data gets a
 * new key.
 */
export function useIdempotencyKey() {
  const last = useRef<{ key: string; body: string } | null>(null);
  return (body: unknown): string => {
    const json = JSON.stringify(body);
    if (last.current && last.current.body === json) return last.current.key;
    last.current = { key: newKey(), body: json };
    return last.current.key;
  };
}
