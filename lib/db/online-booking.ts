import type { ServiceRecord } from '../domain/records';
import { ACTIVE_STATUSES } from '../domain/status';
import { serviceCodec } from './codecs';
import { clientAppointmentsIndexPk, collectionPk } from './keys';
import { oneOf, queryAll, where, withFilter } from './query';

/** The reads only online booking makes (API reference, online booking); never a Scan. */

/** The practice's active services: one Query on its service collection (a catalog, tens of items). */
export async function activeServices(medspaId: string): Promise<ServiceRecord[]> {
  const items = await queryAll(withFilter({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': collectionPk(medspaId, 'SERVICE') },
  }, where<ServiceRecord>({ active: true })));
  return items.map((item) => serviceCodec.fromItem(item)!);
}

/**
 * The client's active online bookings starting at or after `from` (gsi2, by start; eventually
 * consistent), their ends only: bounded by the client's future appointments.
 */
export async function onlineBookingEnds(medspaId: string, clientId: string, from: string): Promise<string[]> {
  const items = await queryAll(withFilter({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk >= :from',
    ProjectionExpression: 'end_at',
    ExpressionAttributeValues: { ':pk': clientAppointmentsIndexPk(medspaId, clientId), ':from': from },
  }, where<{ status: string; source: string }>({ status: oneOf(ACTIVE_STATUSES), source: 'online' })));
  return items.map((item) => String(item.end_at));
}
