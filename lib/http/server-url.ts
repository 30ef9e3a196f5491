/**
 * The base URL a request came to, from its own `Host` (and `X-Forwarded-Proto`, which API
 * Gateway sets); null when the host is not a plain host[:port], so nothing odd is echoed back.
 */
export function serverUrlOf(headers: Record<string, string | undefined>): string | null {
  const host = headers.host?.trim().toLowerCase();
  if (!host || !/^([a-z0-9.-]+|\[[0-9a-f:.]+\])(:[0-9]{1,5})?$/.test(host)) return null;
  const forwarded = headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase();
  const protocol = forwarded === 'https' || forwarded === 'http' ? forwarded : /^(127\.|localhost|\[::1\])/.test(host) ? 'http' : 'https';
  return `${protocol}://${host}`;
}
