import { clientContact } from './presenters';
import type { ClientContact, ClientRecord, LotExposureRecord, LotRecallNoticeRecord, LotRecord } from './records';

/**
 * A lot's recall (API reference, clinical records: recall; docs/decisions/0027): who was exposed,
 * as the exposure list and the `client.lot_exposure` notices show them. Pure.
 */

/**
 * What a recall shows of a client: as stored (a deleted client shows anonymised, as it now is).
 * A client whose item is gone altogether is still named, by id: a recall never drops an exposed person.
 */
export const contactOf = (clientId: string, client: ClientRecord | undefined): ClientContact =>
  client ? clientContact(client) : { id: clientId, first_name: '', last_name: '', email: null, phone: null };

/** One notice per exposed client, with every exposure of theirs to the lot (oldest first), in client id order. */
export function recallNotices(
  lot: LotRecord,
  exposures: readonly LotExposureRecord[],
  clients: ReadonlyMap<string, ClientRecord>,
): LotRecallNoticeRecord[] {
  const byClient = new Map<string, LotExposureRecord[]>();
  for (const exposure of exposures) {
    const list = byClient.get(exposure.client_id) ?? [];
    list.push(exposure);
    byClient.set(exposure.client_id, list);
  }
  return [...byClient.keys()].sort().map((clientId) => {
    return {
      medspa_id: lot.medspa_id,
      lot_id: lot.id,
      client_id: clientId,
      recalled_at: lot.recalled_at ?? lot.updated_at,
      client: contactOf(clientId, clients.get(clientId)),
      lot: { id: lot.id, product_id: lot.product_id, lot_number: lot.lot_number },
      exposures: byClient
        .get(clientId)!
        .map(({ appointment_id, treated_at, quantity }) => ({ appointment_id, treated_at, quantity }))
        .sort((a, b) => a.treated_at.localeCompare(b.treated_at) || a.appointment_id.localeCompare(b.appointment_id)),
    };
  });
}

/** Whether a lot's change is its recall: active before, recalled after (a retry or another change of a recalled lot is not). */
export const isRecall = (before: LotRecord | null, after: LotRecord | null): after is LotRecord =>
  before?.status === 'active' && after?.status === 'recalled';
