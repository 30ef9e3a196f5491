import { BlockList, isIP } from 'node:net';
import { EVENT_TYPES, type EventType } from './events';

/**
 * Pure webhook rules (API reference, webhooks and events): which URLs may be subscribed, which resolved addresses may be
 * connected to, who wants which event, the retry schedule and the auto-disable rule.
 */

// ---------------------------------------------------------------------------------------------
// Retry schedule

const UNIT_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86_400 };

/**
 * `5s,5m,30m,2h,5h,10h` → seconds per retry (`250ms`, a bare number = seconds). The first value
 * is the wait before the 2nd attempt; after the last, the delivery is given up.
 */
export function parseRetrySchedule(text: string): number[] {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.length === 0 || parts.some((part) => part === ''))
    throw new Error('expected a comma-separated list such as 5s,5m,30m');
  return parts.map((part) => {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(part);
    if (!match) throw new Error(`"${part}" is not a duration such as 500ms, 5s, 5m, 2h`);
    return Number(match[1]) * UNIT_SECONDS[match[2] ?? 's'];
  });
}

/** The contract's "about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, then given up". */
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h';

/** Each wait is spread by up to this share either way (Svix: ±20%), so receivers that failed together are not retried together. */
export const RETRY_JITTER = 0.2;

/**
 * Seconds to wait after failed attempt `attempt` (1-based), or null when it was the last. `random`
 * (a number in [0, 1): Math.random in the workers) places the wait within ±20% of the schedule's;
 * the default, the midpoint, is the schedule's exactly.
 */
export function retryDelay(
  schedule: readonly number[],
  attempt: number,
  random: () => number = () => 0.5,
): number | null {
  const seconds = schedule[attempt - 1];
  return seconds === undefined ? null : seconds * (1 + RETRY_JITTER * (2 * random() - 1));
}

// ---------------------------------------------------------------------------------------------
// Subscriptions

export const ALL_EVENTS = '*';

/** Whether a subscription's `events` take an event type (`webhook.test` is only ever sent directly). */
export const wantsEvent = (events: readonly string[], type: EventType) =>
  type !== 'webhook.test' && (events.includes(ALL_EVENTS) || events.includes(type));

export const isSubscribableEvent = (name: string) =>
  name === ALL_EVENTS || (EVENT_TYPES as readonly string[]).includes(name);

/** A subscription whose every delivery failed for this long is disabled (API reference, webhooks and events). */
export const AUTO_DISABLE_AFTER_MS = 3 * 24 * 3600 * 1000;

/** Failing since `failingSince` (no success since): disable at `now`? */
export const shouldAutoDisable = (failingSince: string | null | undefined, now: Date) =>
  Boolean(failingSince) && now.getTime() - Date.parse(failingSince!) >= AUTO_DISABLE_AFTER_MS;

/** After a rotation the previous secret still signs for this long (API reference, webhooks and events). */
export const PREVIOUS_SECRET_VALID_MS = 24 * 3600 * 1000;

// ---------------------------------------------------------------------------------------------
// Addresses a delivery may connect to

/**
 * Everything that is not the public internet: private, loopback, link-local (the cloud metadata
 * endpoint 169.254.169.254 and fd00:ec2::254), CGNAT, unspecified, multicast, reserved and
 * documentation ranges, and the IPv6 prefixes that embed an IPv4 address (NAT64). BlockList also
 * matches IPv4-mapped IPv6 (`::ffff:10.0.0.1`) against the IPv4 ranges. Built on first use:
 * every function's configuration imports this module, and building the list (Node loads its
 * block-list and socket-address code for it) cost about 1 ms of every cold start.
 */
const BLOCKED_IPV4 = [
  ['0.0.0.0', 8], // "this network", incl. the unspecified 0.0.0.0
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, incl. 169.254.169.254 (instance metadata)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. broadcast
] as const;
const BLOCKED_IPV6 = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated)
  ['64:ff9b::', 96], // NAT64
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local, incl. fd00:ec2::254 (EC2 metadata over IPv6)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const;

let blocked: BlockList | undefined;

function blockedRanges(): BlockList {
  if (!blocked) {
    blocked = new BlockList();
    for (const [network, prefix] of BLOCKED_IPV4) blocked.addSubnet(network, prefix, 'ipv4');
    for (const [network, prefix] of BLOCKED_IPV6) blocked.addSubnet(network, prefix, 'ipv6');
  }
  return blocked;
}

/** True for an address a webhook must never reach (any malformed address counts as blocked). */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return blockedRanges().check(address, family === 4 ? 'ipv4' : 'ipv6');
}

// ---------------------------------------------------------------------------------------------
// URLs

export const MAX_URL_LENGTH = 2048;

/** Hosts the local server may call over plain http (API reference, webhooks and events). */
const LOCAL_HTTP_HOSTS = new Set(['localhost', '127.0.0.1']);

export type UrlCheck =
  | {
      ok: true;
      url: URL;
      /** The host without IPv6 brackets. */
      host: string;
      /** Whether resolved addresses must be public (production), or anything goes (local server). */
      publicOnly: boolean;
    }
  | { ok: false; problem: string };

/**
 * The syntactic half of the URL rule (the other half resolves the host): `https://` only; with
 * `allowLocal` (the local server) also `http://localhost` and `http://127.0.0.1`, any port: those
 * two hosts and nothing else inside (API reference, webhooks and events), every other target must be public there too. No
 * credentials in the URL. An IP literal or a `localhost` name must already be public.
 */
export function checkWebhookUrl(raw: string, options: { allowLocal: boolean }): UrlCheck {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, problem: `must be at most ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, problem: 'must be an absolute URL such as https://example.com/webhooks' };
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const localHost = options.allowLocal && LOCAL_HTTP_HOSTS.has(host);
  if (url.protocol !== 'https:' && !(localHost && url.protocol === 'http:')) {
    return {
      ok: false,
      problem: options.allowLocal
        ? 'must use https:// (or http://localhost / http://127.0.0.1 locally)'
        : 'must use https://',
    };
  }
  if (url.username || url.password) return { ok: false, problem: 'must not contain credentials' };
  if (!host) return { ok: false, problem: 'must name a host' };
  if (localHost) return { ok: true, url, host, publicOnly: false };
  if (host === 'localhost' || host.endsWith('.localhost'))
    return { ok: false, problem: 'must not point to a loopback address' };
  if (isIP(host) && isBlockedAddress(host))
    return { ok: false, problem: 'must not point to a private, loopback or link-local address' };
  return { ok: true, url, host, publicOnly: true };
}

export const BLOCKED_ADDRESS_PROBLEM = 'resolves to a private, loopback or link-local address';
