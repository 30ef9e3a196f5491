import { EDGE_HEADERS, viaEdge } from './client-ip';

/**
 * The base URL a request came to, from its own `Host` (and `X-Forwarded-Proto`, which API
 * Gateway sets); null when the host is not a plain host[:port], so nothing odd is echoed back.
 * Through the stage's edge, `Host` is the origin's: the viewer's comes as `X-Forwarded-Host`,
 * believed only with the edge's secret.
 */
export function serverUrlOf(headers: Record<string, string | undefined>): string | null {
  const host = ((viaEdge(headers) ? headers[EDGE_HEADERS.forwardedHost] : undefined) ?? headers.host)
    ?.trim()
    .toLowerCase();
  if (!host || !/^([a-z0-9.-]+|\[[0-9a-f:.]+\])(:[0-9]{1,5})?$/.test(host)) return null;
  const forwarded = headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase();
  const protocol =
    forwarded === 'https' || forwarded === 'http'
      ? forwarded
      : /^(127\.|localhost|\[::1\])/.test(host)
        ? 'http'
        : 'https';
  return `${protocol}://${host}`;
}
