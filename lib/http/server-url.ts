import { config } from '../config';
import { viaEdge } from './client-ip';

/**
 * The base URL a request came to, from its own `Host` (and `X-Forwarded-Proto`, which API
 * Gateway sets); null when the host is not a plain host[:port], so nothing odd is echoed back.
 * Through the stage's edge, `Host` is the origin's (execute-api's): a request proven to come
 * through it (the edge's secret) came to the stage's public URL, `API_BASE_URL`, which the stage
 * sets to the distribution's address or its custom domain (no edge function copies the viewer's).
 */
export function serverUrlOf(headers: Record<string, string | undefined>): string | null {
  const publicUrl = viaEdge(headers) ? config().API_BASE_URL : undefined;
  if (publicUrl) return new URL(publicUrl).origin;
  const host = headers.host?.trim().toLowerCase();
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
