import type { FastifyReply } from 'fastify';
import { sendJsonText } from './serializer.js';

/** This request's URL with `param` set to `value`, as a Link header's target of relation `rel`. */
function link(url: string, param: string, value: string, rel: 'next' | 'prev') {
  const target = new URL(url, 'http://relative');
  target.searchParams.set(param, value);
  return `<${target.pathname}${target.search}>; rel="${rel}"`;
}

/**
 * Says where a list's next page starts (issue 54): its cursor in X-Next-Cursor, and this request's
 * URL with that cursor in Link (RFC 8288, rel="next"). The body stays the bare array it always was.
 */
export function setNextPage(reply: FastifyReply, url: string, next: string) {
  reply.header('x-next-cursor', next).header('link', link(url, 'cursor', next, 'next'));
}

/**
 * Sends a page whose JSON the database wrote, saying where the next starts when more follow; a
 * list read backwards (a chat, from its newest) says where the earlier page ends instead:
 * X-Prev-Cursor and Link rel="prev" with it as `before`.
 */
export function sendPage(
  reply: FastifyReply,
  url: string,
  page: { json: string | Buffer; next?: string | null; prev?: string },
) {
  if (page.next) setNextPage(reply, url, page.next);
  if (page.prev)
    reply.header('x-prev-cursor', page.prev).header('link', link(url, 'before', page.prev, 'prev'));
  return sendJsonText(reply, page.json);
}
