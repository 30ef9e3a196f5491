import type { ApiMiddleware } from './types';

/** The entity tags an `If-None-Match` lists, without their weak prefix (RFC 9110 13.1.2 compares them weakly). */
const tagsOf = (header: string) =>
  header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .filter(Boolean);

/** Whether a GET's `If-None-Match` names this answer's `ETag` (or `*`). */
export function notModified(ifNoneMatch: string | undefined, etag: string | undefined): boolean {
  if (!ifNoneMatch || !etag) return false;
  const current = etag.replace(/^W\//, '');
  return tagsOf(ifNoneMatch).some((tag) => tag === '*' || tag === current);
}

/**
 * A GET whose `If-None-Match` names the answer's `ETag` is answered 304 with no body: a list
 * poll that finds nothing new sends back nothing but headers. Its reads are still made (the ETag
 * is of what they found); what it saves is the answer's bytes, on the wire and at the client.
 */
export const conditionalGet = (): ApiMiddleware => ({
  after: (request) => {
    const answer = request.response;
    if (request.internal.route.method !== 'GET' || answer?.statusCode !== 200) return;
    const headers = answer.headers as Record<string, string> | undefined;
    if (!notModified(request.event.headers?.['if-none-match'], headers?.etag)) return;
    const { 'content-type': _type, 'content-length': _length, ...kept } = headers ?? {};
    request.response = { statusCode: 304, headers: kept, body: '' };
  },
});
