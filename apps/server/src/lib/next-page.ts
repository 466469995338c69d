import type { FastifyReply } from 'fastify';

/**
 * Says where a list's next page starts (issue 54): its cursor in X-Next-Cursor, and this request's
 * URL with that cursor in Link (RFC 8288, rel="next"). The body stays the bare array it always was.
 */
export function setNextPage(reply: FastifyReply, url: string, next: string) {
  const nextUrl = new URL(url, 'http://relative');
  nextUrl.searchParams.set('cursor', next);
  reply.header('x-next-cursor', next).header('link', `<${nextUrl.pathname}${nextUrl.search}>; rel="next"`);
}
