import { createHash, timingSafeEqual } from 'node:crypto';
import { config } from '../config';

/**
 * Headers the stage's CloudFront edge (infra/constructs/edge-distribution.ts) sets on what it sends
 * the HTTP API, lower-cased as API Gateway passes them. Named once here, for the CDK app and the code.
 */
export const EDGE_HEADERS = {
  /** The stage's origin-verify secret (ORIGIN_VERIFY_SECRET), an origin custom header: CloudFront overwrites a viewer's own. */
  verify: 'x-origin-verify',
  /** `<viewer ip>:<port>`, set by CloudFront itself (the origin request policy forwards it). */
  viewerAddress: 'cloudfront-viewer-address',
} as const;

type Headers = Record<string, string | undefined> | null | undefined;

/** The parts of an HTTP API event this reads (the local router's events have them too). */
export interface ClientEvent {
  headers?: Headers;
  requestContext?: { http?: { sourceIp?: string } };
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compared as fixed-length digests in constant time: the secret is not guessable by timing, nor its length. */
const sameText = (a: string, b: string): boolean => timingSafeEqual(digest(a), digest(b));

/** Whether the edge is on for this stage: then every request must come through it. */
export const edgeRequired = (): boolean => config().ORIGIN_VERIFY_SECRET !== undefined;

/** Whether the request provably came through this stage's CloudFront distribution (it carries the stage's secret). */
export function viaEdge(headers: Headers): boolean {
  const secret = config().ORIGIN_VERIFY_SECRET;
  const sent = headers?.[EDGE_HEADERS.verify];
  return secret !== undefined && sent !== undefined && sameText(sent, secret);
}

const IPV4 = /^(\d{1,3})(\.\d{1,3}){3}$/;
const IPV6 = /^[0-9a-f]*:[0-9a-f:.]*$/;

/** The IP of `CloudFront-Viewer-Address` (`198.51.100.10:46532`, `2001:db8::1:46532`: the port after the last colon). */
function viewerIpOf(address: string | undefined): string | undefined {
  const cut = address?.lastIndexOf(':') ?? -1;
  if (!address || cut <= 0) return undefined;
  const ip = address.slice(0, cut).trim().toLowerCase();
  return IPV4.test(ip) || IPV6.test(ip) ? ip : undefined;
}

const ipOfEvent = new WeakMap<ClientEvent, string | undefined>();

/**
 * The client's IP for per-IP limits. Behind CloudFront, API Gateway's `sourceIp` is CloudFront's
 * own address, shared by every viewer of that edge; the viewer's is in `CloudFront-Viewer-Address`,
 * trusted only when the request carries the stage's origin-verify secret. Anyone can send that
 * header straight to the origin: without the secret it is ignored, and `sourceIp` (the true peer)
 * is the client.
 */
export function clientIpOf(event: ClientEvent): string | undefined {
  // The chain, the rate limiter and the idempotency scope each ask: the secret's hashing runs once a request.
  if (ipOfEvent.has(event)) return ipOfEvent.get(event);
  const sourceIp = event.requestContext?.http?.sourceIp;
  const ip = viaEdge(event.headers) ? (viewerIpOf(event.headers?.[EDGE_HEADERS.viewerAddress]) ?? sourceIp) : sourceIp;
  ipOfEvent.set(event, ip);
  return ip;
}
