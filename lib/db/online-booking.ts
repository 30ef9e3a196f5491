import type { ServiceRecord } from '../domain/records';
import { serviceCodec } from './codecs';
import { collectionPk } from './keys';
import { queryAll, where } from './query';

/** The reads only online booking makes (API reference, online booking); never a Scan. */

/** The practice's active services: one Query on its service collection (a catalog, tens of items). */
export async function activeServices(medspaId: string): Promise<ServiceRecord[]> {
  return queryAll(serviceCodec, {
    partition: collectionPk(medspaId, 'SERVICE'),
    filter: where<ServiceRecord>({ active: true }),
  });
}
