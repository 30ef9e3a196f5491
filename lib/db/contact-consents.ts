import type { PageRequest } from '../crypto/cursor';
import {
  applyConsentChanges,
  LISTED_CONSENTS,
  NO_CONSENTS,
  type ConsentChange,
  type ConsentState,
  type ListedConsent,
  type RecordedConsentChange,
} from '../domain/contact-consent';
import type { ContactConsentChangeRecord } from '../domain/records';
import { clientIsLive } from './client-stats';
import { tableName } from './client';
import { consentedClientCodec, contactConsentChangeCodec, contactConsentStateCodec } from './codecs';
import { readItem } from './key-reads';
import { consentedClientKey, consentedClientsPk, contactConsentsPk, contactConsentStateKey } from './keys';
import { newItemAction } from './put-new';
import { queryOnce, queryPage, type Page } from './query';
import type { RequestWrites } from './request-writes';
import { firstFailed, transact, type NamedAction, type TransactItem } from './transact';

/**
 * Contact consents (section 14; docs/decisions/0030-contact-consent-history.md): per client, one
 * partition of immutable changes (`CHANGE#<sequence>`) and one state item (`STATE`, its `version`
 * the last sequence). A change puts its history entries and the new state, conditioned on the
 * version read, in one transaction (with the marketing lists' items), so the state always equals
 * the newest change and no change is lost to a racing one: the loser reads again and retries.
 */

/** The client's consent state as read (strongly): none recorded yet is version 0. */
export async function readConsentState(medspaId: string, clientId: string): Promise<ConsentState> {
  return stateOf(await readItem(contactConsentStateKey(medspaId, clientId)));
}

/** A state item as read with other items (a public booking's batch read); absent is no consents yet. */
export function stateOf(item: Record<string, unknown> | undefined): ConsentState {
  const record = contactConsentStateCodec.fromItem(item);
  return record ? { version: record.version, current: record.current } : NO_CONSENTS;
}

/**
 * The writes of `changes` on the state read, to commit with whatever else the caller commits (a
 * public booking's appointment): the new state on the version read, each change's history item
 * (new), and the marketing lists' items put (granted) or deleted (revoked). Nothing for no change.
 */
export function consentChangeActions(
  medspaId: string,
  clientId: string,
  read: ConsentState,
  changes: readonly ConsentChange[],
  at: string,
): { actions: TransactItem[]; recorded: RecordedConsentChange[]; state: ConsentState } {
  if (changes.length === 0) return { actions: [], recorded: [], state: read };
  const { state, recorded, listed } = applyConsentChanges(read, changes, at);
  const stateItem = contactConsentStateCodec.toItem({
    medspa_id: medspaId,
    client_id: clientId,
    version: state.version,
    current: state.current,
    updated_at: at,
  });
  const statePut: TransactItem =
    read.version === 0
      ? newItemAction(stateItem)
      : {
          Put: {
            TableName: tableName(),
            Item: stateItem,
            ConditionExpression: '#version = :read',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':read': read.version },
          },
        };
  const listActions = (Object.entries(listed) as [ListedConsent, boolean][]).map(
    ([consent, granted]): TransactItem =>
      granted
        ? {
            Put: {
              TableName: tableName(),
              Item: consentedClientCodec.toItem({ medspa_id: medspaId, consent, client_id: clientId, since: at }),
            },
          }
        : { Delete: { TableName: tableName(), Key: consentedClientKey(medspaId, consent, clientId) } },
  );
  return {
    actions: [
      statePut,
      ...recorded.map((change) =>
        newItemAction(contactConsentChangeCodec.toItem({ ...change, medspa_id: medspaId, client_id: clientId })),
      ),
      ...listActions,
    ],
    recorded,
    state,
  };
}

type ChangeAction = NamedAction<'client' | 'consents'>;

/**
 * Commits `changes` on the state read, on condition the client is still live (a deletion that
 * committed first wins: `client`) and the state is still the version read (a racing change
 * committed first: `state`, read again and decide again).
 */
export async function commitConsentChanges(
  medspaId: string,
  clientId: string,
  read: ConsentState,
  changes: readonly ConsentChange[],
  at: string,
  writes?: RequestWrites,
): Promise<{ ok: true; recorded: RecordedConsentChange[] } | { ok: false; failed: 'client' | 'state' }> {
  const { actions, recorded } = consentChangeActions(medspaId, clientId, read, changes, at);
  const outcome = await transact<ChangeAction>(
    [
      { name: 'client', action: clientIsLive(medspaId, clientId) },
      ...actions.map((action) => ({ name: 'consents' as const, action })),
    ],
    writes,
  );
  if (outcome.ok) return { ok: true, recorded };
  return { ok: false, failed: firstFailed(outcome.failed, ['client']) ? 'client' : 'state' };
}

/**
 * The state and the latest `max` changes, newest first: ONE strongly consistent descending Query
 * of the client's partition (`STATE` sorts after every `CHANGE#`, so it comes first).
 */
export async function consentsWithHistory(
  medspaId: string,
  clientId: string,
  max: number,
): Promise<{ state: ConsentState; history: ContactConsentChangeRecord[] }> {
  const items = await queryOnce(partitionItem, {
    partition: contactConsentsPk(medspaId, clientId),
    descending: true,
    consistent: true,
    limit: max + 1,
  });
  const state = items.find((item) => item.kind === 'state');
  return {
    state: state?.state ?? NO_CONSENTS,
    history: items.flatMap((item) => (item.kind === 'change' ? [item.change] : [])).slice(0, max),
  };
}

/** An item of a client's consent partition, by its tag, through its kind's codec. */
const partitionItem = {
  fromItem: (item: Record<string, unknown> | undefined) => {
    if (!item) return null;
    if (item.entity === contactConsentStateCodec.entity) return { kind: 'state' as const, state: stateOf(item) };
    return { kind: 'change' as const, change: contactConsentChangeCodec.fromItem(item)! };
  },
};

/** A page of the clients on a marketing consent's list, in client id order, with `total`. */
export const consentedClientsPage = (
  medspaId: string,
  consent: ListedConsent,
  page: PageRequest,
): Promise<Page<{ client_id: string }>> =>
  queryPage(consentedClientCodec, { partition: consentedClientsPk(medspaId, consent), ...page, consistent: true });

/** A deleted client leaves every marketing list, in its deletion's transaction (a Delete of an absent item is a no-op). */
export const consentedClientDeletes = (medspaId: string, clientId: string): TransactItem[] =>
  LISTED_CONSENTS.map((consent) => ({
    Delete: { TableName: tableName(), Key: consentedClientKey(medspaId, consent, clientId) },
  }));
