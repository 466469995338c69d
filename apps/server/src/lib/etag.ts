/** If-None-Match (a list of entity tags, or `*`) names this one; weak comparison as RFC 9110 asks. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}
