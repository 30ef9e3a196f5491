import type { RequestWrites } from '../db/request-writes';
import { pageRequest } from '../crypto/cursor';
import {
  commitConsentChanges,
  consentedClientsPage,
  consentsWithHistory,
  readConsentState,
} from '../db/contact-consents';
import { DataFailure } from '../db/failure';
import { HISTORY_SHOWN, type ConsentChannel, type ConsentPurpose, type ListedConsent } from '../domain/contact-consent';
import { presentClient } from '../domain/presenters';
import { AppError } from '../errors';
import { retry } from '../retry';
import type * as z from '../schemas/zod';
import type { ContactConsentChange, ContactConsents, SetContactConsentInput } from '../schemas/contact-consents';
import type { ClientView } from '../schemas/resources';
import type { ListResult } from './list-result';
import { findResources, readResource } from './resources';

/**
 * Contact consent (API reference, section 14; docs/decisions/0030-contact-consent-history.md):
 * a PUT records a change, a GET answers the state and the latest history in one Query, and the
 * clients list filters by a marketing consent through its list partition.
 */

type ChangeView = z.output<typeof ContactConsentChange>;

/** Racing changes of one client retry on the state read afresh; this bounds a pathological pile-up. */
const MAX_ATTEMPTS = 25;

/**
 * PUT /v1/clients/{id}/contact-consents/{channel}/{purpose}: records the change (a history entry,
 * always) and makes it the pair's current state, on the state as read (a racing change that
 * committed first makes this one read again and go after it).
 */
export async function setContactConsent(
  medspaId: string,
  clientId: string,
  pair: { channel: ConsentChannel; purpose: ConsentPurpose },
  input: SetContactConsentInput,
  now: Date,
  writes?: RequestWrites,
): Promise<ChangeView> {
  const change = { ...pair, status: input.status, source: input.source, evidence: input.evidence ?? null };
  return retry<ChangeView>(
    async (attempt) => {
      // The first try reads the client (404 first) beside the state; a retry only the state.
      const read =
        attempt === 1
          ? (await Promise.all([readResource('client', medspaId, clientId), readConsentState(medspaId, clientId)]))[1]
          : await readConsentState(medspaId, clientId);
      const result = await commitConsentChanges(medspaId, clientId, read, [change], now.toISOString(), writes);
      if (result.ok) {
        const { sequence: _sequence, ...recorded } = result.recorded[0]!;
        return { done: recorded };
      }
      // Deleted since the check above: its deletion committed first.
      if (result.failed === 'client') throw new AppError('CLIENT_NOT_FOUND');
      return { retry: 'later' };
    },
    {
      attempts: MAX_ATTEMPTS,
      exhausted: () => {
        throw new DataFailure('busy', 'The client has many concurrent consent changes; try again');
      },
    },
  );
}

/** GET /v1/clients/{id}/contact-consents: the current state and the latest HISTORY_SHOWN changes, newest first. */
export async function getContactConsents(
  medspaId: string,
  clientId: string,
): Promise<z.output<typeof ContactConsents>> {
  const [, { state, history }] = await Promise.all([
    readResource('client', medspaId, clientId),
    consentsWithHistory(medspaId, clientId, HISTORY_SHOWN),
  ]);
  return {
    current: state.current,
    history: history.map(({ channel, purpose, status, source, evidence, recorded_at }) => ({
      channel,
      purpose,
      status,
      source,
      evidence,
      recorded_at,
    })),
  };
}

/** `GET /v1/clients?consent=`: not combined with a search or the membership filter (the list is its own partition). */
export function assertConsentAlone(input: { consent?: string; q?: string; membership_status?: string }): void {
  if (!input.consent) return;
  const others = (['q', 'membership_status'] as const).filter((name) => input[name] !== undefined);
  if (others.length > 0)
    throw new AppError('VALIDATION_ERROR', 'consent cannot be combined with q or membership_status', {
      details: others.map((path) => ({ path, message: 'not combinable with consent' })),
    });
}

/**
 * The clients whose `consent` is granted, in id order: one Query of its list partition (strong,
 * bounded by the page) and one BatchGet of the page's clients. `total` counts the list (a COUNT
 * Query when the page is not all of it). A deleted client left the list in its deletion's transaction.
 */
export async function listConsentedClients(
  medspaId: string,
  consent: ListedConsent,
  query: { limit: number; cursor?: string },
  now: Date,
): Promise<ListResult<ClientView>> {
  const page = await consentedClientsPage(
    medspaId,
    consent,
    pageRequest(medspaId, 'consented-clients', { ...query, consent }),
  );
  const clients = await findResources(
    'client',
    medspaId,
    page.items.map((entry) => entry.client_id),
  );
  const shown = page.items.flatMap((entry) => {
    const client = clients.get(entry.client_id);
    return client ? [presentClient(client, now)] : [];
  });
  return {
    data: shown,
    pagination: { total: page.total, next_cursor: page.nextCursor },
    // Cut points stay the list's own only while every entry is shown.
    ...(shown.length === page.items.length && page.cursorAfter ? { cursorAfter: page.cursorAfter } : {}),
  };
}
