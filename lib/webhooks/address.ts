import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { BLOCKED_ADDRESS_PROBLEM, checkWebhookUrl, isBlockedAddress } from '../domain/webhooks';

/**
 * The resolving half of the URL rule. In production every address the host resolves to must be
 * public (one private answer refuses the lot), and the connection then goes to those validated
 * addresses only (`pinnedLookup`), so a DNS answer that changes between check and connect
 * (rebinding) cannot steer a delivery inside.
 */

export type Lookup = (hostname: string) => Promise<LookupAddress[]>;

export const systemLookup: Lookup = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, order: 'ipv4first' }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

export type Target = { ok: true; url: URL; addresses: LookupAddress[] } | { ok: false; problem: string };

export async function resolveTarget(raw: string, options: { allowLocal: boolean; lookup?: Lookup }): Promise<Target> {
  const check = checkWebhookUrl(raw, options);
  if (!check.ok) return check;
  const family = isIP(check.host);
  let addresses: LookupAddress[];
  if (family !== 0) {
    addresses = [{ address: check.host, family }];
  } else {
    try {
      addresses = await (options.lookup ?? systemLookup)(check.host);
    } catch {
      return { ok: false, problem: 'host does not resolve' };
    }
    if (addresses.length === 0) return { ok: false, problem: 'host does not resolve' };
  }
  if (check.publicOnly && addresses.some((entry) => isBlockedAddress(entry.address)))
    return { ok: false, problem: BLOCKED_ADDRESS_PROBLEM };
  return { ok: true, url: check.url, addresses };
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request that answers only the addresses already validated. Node asks
 * with `all: true` when it races address families (autoSelectFamily), else for one address.
 */
export function pinnedLookup(addresses: LookupAddress[]) {
  return (_hostname: string, options: { all?: boolean } | LookupCallback, callback?: LookupCallback) => {
    const done = (typeof options === 'function' ? options : callback)!;
    const all = typeof options === 'object' && options?.all;
    if (all) done(null, addresses);
    else done(null, addresses[0].address, addresses[0].family);
  };
}

/**
 * The subscribe-time check: the URL rule, and in production the host's current addresses. Answers
 * the problem (for a VALIDATION_ERROR on `url`), or null when the URL may be subscribed.
 */
export async function subscriptionUrlProblem(
  raw: string,
  options: { allowLocal: boolean; lookup?: Lookup },
): Promise<string | null> {
  const check = checkWebhookUrl(raw, options);
  if (!check.ok) return check.problem;
  if (!check.publicOnly) return null;
  const target = await resolveTarget(raw, options);
  return target.ok ? null : target.problem;
}
