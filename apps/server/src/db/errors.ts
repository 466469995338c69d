/** Name of the unique constraint or index a write violated, if that is why it failed. */
export function uniqueViolation(err: unknown): string | undefined {
  for (
    let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (e.code === '23505') return e.constraint ?? '';
  }
  return undefined;
}
