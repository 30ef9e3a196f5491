/**
 * The timing oracle of online booking (issue 34): can a stranger tell from how long a booking takes
 * whether an email is already a client? Public bookings through the local server, a new email and
 * a known one alternating pair by pair (each on its own provider and a fresh slot start, so
 * neither waits on the other), with the share of pairs where the known email was the slower:
 * about 50% is no oracle. `npm test` states the calls of each path (test/integration/
 * public-booking-calls.test.ts); timings are measured only here.
 */
import { performance } from 'node:perf_hooks';
import { barePost } from './bare-http';

export interface OracleSetup {
  baseUrl: string;
  publishableKey: string;
  serviceId: string;
  /** Providers bookable at every `slotAt(n)`, one per side. */
  providerIds: readonly [string, string];
  /** The n-th free slot start (on the public slot grid). */
  slotAt: (n: number) => string;
  pairs: number;
}

const KNOWN_EMAILS = 5;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function measureEmailOracle(setup: OracleSetup) {
  const post = barePost(setup.baseUrl, { 'x-publishable-key': setup.publishableKey });
  // Known emails, each a client with one booking; taken in turn, so none reaches the practice's limit.
  const knownEmails = Array.from({ length: KNOWN_EMAILS }, (_, i) => `known.${i}.${Date.now()}@example.com`);
  let n = 0;
  const book = (email: string, providerId: string) =>
    post(
      '/v1/public/bookings',
      {
        service_id: setup.serviceId,
        provider_id: providerId,
        scheduled_at: setup.slotAt(n++),
        client: { first_name: 'Oracle', last_name: 'Probe', email },
      },
      { 'idempotency-key': `oracle-${n}-${Date.now()}` },
    );
  for (const email of knownEmails) await book(email, setup.providerIds[1]);
  const fresh: number[] = [];
  const known: number[] = [];
  let knownSlower = 0;
  for (let i = 0; i < setup.pairs; i += 1) {
    // Which goes first alternates too, so neither side always follows the other.
    const sides = [
      () => book(`new.${i}.${Date.now()}@example.com`, setup.providerIds[0]),
      () => book(knownEmails[i % KNOWN_EMAILS]!, setup.providerIds[1]),
    ];
    const times: number[] = [];
    for (const side of i % 2 === 0 ? sides : [...sides].reverse()) {
      const start = performance.now();
      await side();
      times.push(performance.now() - start);
    }
    const [newMs, knownMs] = i % 2 === 0 ? times : [...times].reverse();
    fresh.push(newMs!);
    known.push(knownMs!);
    if (knownMs! > newMs!) knownSlower += 1;
  }
  const share = knownSlower / setup.pairs;
  return {
    line: `email oracle: public booking p50 new email ${median(fresh).toFixed(1)} ms, known email ${median(known).toFixed(1)} ms (difference ${(median(known) - median(fresh)).toFixed(1)} ms); the known one slower in ${(share * 100).toFixed(0)}% of ${setup.pairs} pairs (50% is no oracle)`,
  };
}
