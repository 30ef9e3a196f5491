import type { ServiceRecord } from '../domain/records';
import { serviceCodec } from './codecs';
import { collectionPk } from './keys';
import { queryAll, where, withFilter } from './query';

/** The reads only online booking makes (API reference, online booking); never a Scan. */

/** The practice's active services: one Query on its service collection (a catalog, tens of items). */
export async function activeServices(medspaId: string): Promise<ServiceRecord[]> {
  const items = await queryAll(
    withFilter(
      {
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': collectionPk(medspaId, 'SERVICE') },
      },
      where<ServiceRecord>({ active: true }),
    ),
  );
  return items.map((item) => serviceCodec.fromItem(item)!);
}
