/** If-None-Match (a list of entity tags, or `*`) names this one; weak comparison as RFC 9110 asks. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((t) => opaque(t) === '*' || opaque(t) === opaque(etag));
}
