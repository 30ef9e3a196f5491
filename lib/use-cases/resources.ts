import { randomUUID } from 'node:crypto';
import { pageRequest } from '../crypto/cursor';
import type { CollectionType, RecordOf } from '../db/batch';
import type { Filter } from '../db/query';
import type { RequestWrites } from '../db/request-writes';
import {
  commitProviderDeletion,
  getLiveEntities,
  getLiveEntity,
  listLiveEntities,
  readProviderForDeletion,
  putNewResource,
  servicesCertifying,
  updateLiveEntity,
} from '../db/resources';
import { changesNothing, type VersionedFailure } from '../db/update';
import type { TimeOff, WorkingHours } from '../domain/availability';
import { byStart, WEEKDAYS } from '../domain/time';
import { AppError, type ErrorCode } from '../errors';
import { retry } from '../retry';
import { changeFromCurrent as changeFromFresh } from './change-from-current';
import { failureOf, type FailureTable } from './failures';
import { toListResult, type ListResult } from './list-result';
import type { ClientRecord, FacilityRecord, ProviderRecord, ServiceRecord } from '../domain/records';
import type {
  CreateFacilityInput,
  CreateProviderInput,
  UpdateFacilityInput,
  UpdateProviderInput,
} from '../schemas/resources';

/**
 * Setup resources (API reference, other resources): one generic create / read / change / soft delete / list serving
 * every kind, plus the rules that are specific to a kind (provider names and hours, a provider's
 * deletion). Services and their certifications are in ./services; clients, with their search
 * index and erasure, in ./clients. Handlers in functions/<group>/ are one-line adapters.
 */

/**
 * Each kind's record as the data layer decodes it: RecordOf its TYPE, so `ResourceRecord<K>` of a
 * generic K is what the data layer's functions take and return for `TYPE[kind]` (lib/db/batch.ts
 * `COLLECTIONS` is a map over the types): the types flow without casts.
 */
type ResourceRecord<K extends ResourceKind> = RecordOf<(typeof TYPE)[K]>;
/** Spelled out for readers; checked to be the same records. */
type SameRecords = { [K in ResourceKind]: ResourceRecord<K> } extends {
  provider: ProviderRecord;
  room: FacilityRecord;
  equipment: FacilityRecord;
  service: ServiceRecord;
  client: ClientRecord;
}
  ? true
  : false;
const sameRecords: SameRecords = true;
void sameRecords;
export type ResourceKind = keyof typeof TYPE;
/** Services are deactivated (`active: false`), never deleted; clients are deleted by ./clients (erasure, search index, cascade). */
export type DeletableKind = Exclude<ResourceKind, 'service' | 'client'>;
export type FacilityKind = 'room' | 'equipment';

const TYPE = {
  provider: 'PROVIDER',
  room: 'ROOM',
  equipment: 'EQUIPMENT',
  service: 'SERVICE',
  client: 'CLIENT',
} as const satisfies Record<string, CollectionType>;

const NOT_FOUND = {
  provider: 'PROVIDER_NOT_FOUND',
  room: 'ROOM_NOT_FOUND',
  equipment: 'EQUIPMENT_NOT_FOUND',
  service: 'SERVICE_NOT_FOUND',
  client: 'CLIENT_NOT_FOUND',
} as const satisfies Record<ResourceKind, ErrorCode>;

/** A failed versioned write of a resource of this kind: absent (or deleted) is its 404, another version VERSION_CONFLICT. */
export const versionedFailures = (kind: ResourceKind): FailureTable<{ failed: VersionedFailure }> => ({
  absent: NOT_FOUND[kind],
  version: 'VERSION_CONFLICT',
});

type Meta = 'id' | 'medspa_id' | 'version' | 'created_at' | 'updated_at' | 'deleted_at';
export type Fields<K extends ResourceKind> = Omit<ResourceRecord<K>, Meta>;

export interface WriteOptions {
  /** The `If-Match` version, if the caller sent one. */
  ifMatch?: number;
  now: Date;
  /** The request's own writes (its audit entry, its Idempotency-Key marker), committed with the change. */
  writes?: RequestWrites;
}

// ---------------------------------------------------------------------------------------------
// Generic operations

/** The live (not deleted) resource, or null for unknown, deleted and malformed ids. */
export const findResource = <K extends ResourceKind>(kind: K, medspaId: string, id: string) =>
  getLiveEntity(medspaId, TYPE[kind], id);

/** Several live resources of one kind in one round trip, keyed by id (unknown ids are absent). */
export const findResources = <K extends ResourceKind>(kind: K, medspaId: string, ids: readonly string[]) =>
  getLiveEntities(medspaId, TYPE[kind], ids);

/** The live resource, or the kind's 404 (PROVIDER_NOT_FOUND, ROOM_NOT_FOUND, ...). */
export async function readResource<K extends ResourceKind>(
  kind: K,
  medspaId: string,
  id: string,
): Promise<ResourceRecord<K>> {
  const found = await findResource(kind, medspaId, id);
  if (!found) throw new AppError(NOT_FOUND[kind]);
  return found;
}

/** A new resource, with the request's writes when given (one round trip either way). */
export async function createResource<K extends ResourceKind>(
  kind: K,
  medspaId: string,
  fields: Fields<K>,
  now: Date,
  writes?: RequestWrites,
): Promise<ResourceRecord<K>> {
  const at = now.toISOString();
  const record = {
    id: randomUUID(),
    medspa_id: medspaId,
    ...fields,
    version: 1,
    created_at: at,
    updated_at: at,
  } as ResourceRecord<K>;
  return putNewResource(TYPE[kind], record, writes);
}

/** A PATCH: only the fields given change (null clears a nullable one); version +1. */
export async function changeResource<K extends ResourceKind>(
  kind: K,
  medspaId: string,
  id: string,
  changes: Partial<Fields<K>>,
  options: WriteOptions,
): Promise<ResourceRecord<K>> {
  const result = await updateLiveEntity(medspaId, TYPE[kind], id, changes, {
    expectedVersion: options.ifMatch,
    now: options.now.toISOString(),
  });
  if (!result.ok) throw failureOf(versionedFailures(kind), result);
  return result.item;
}

/** A change computed from the current state (./change-from-current.ts), of a live resource; `commit` defaults to a versioned update. */
export const changeFromCurrent = <K extends ResourceKind>(
  kind: K,
  medspaId: string,
  id: string,
  options: WriteOptions,
  build: (current: ResourceRecord<K>) => Promise<Partial<Fields<K>> | null> | Partial<Fields<K>> | null,
  commit: (changes: Partial<Fields<K>>, current: ResourceRecord<K>) => Promise<ResourceRecord<K>> = (
    changes,
    current,
  ) => changeResource(kind, medspaId, id, changes, { now: options.now, ifMatch: current.version }),
): Promise<ResourceRecord<K>> =>
  changeFromFresh({
    read: () => readResource(kind, medspaId, id),
    build,
    unchanged: changesNothing,
    commit,
    ifMatch: options.ifMatch,
  });

/**
 * Soft delete: `deleted_at` is set and the resource is hidden from then on, while appointments
 * keep referring to it. A provider is also withdrawn from every service (removeProvider).
 * Answers the contract's deletion object.
 */
export async function removeResource(
  kind: DeletableKind,
  medspaId: string,
  id: string,
  options: WriteOptions,
): Promise<{ id: string; deleted: true }> {
  if (kind === 'provider') return removeProvider(medspaId, id, options);
  await changeResource(
    kind,
    medspaId,
    id,
    { deleted_at: options.now.toISOString() } as Partial<Fields<typeof kind>>,
    options,
  );
  return { id, deleted: true };
}

/** The provider plus its services must fit one transaction (100 actions). */
const MAX_SERVICES_PER_DELETION = 99;

/**
 * Deletes a provider and withdraws it from the `provider_ids` of every service in ONE transaction:
 * the services that list it come from a strongly consistent Query of the service collection made
 * after reading the provider's certification count, and each is written on the version read. The
 * deletion commits only if that count is unchanged (a certification touches its provider, in its
 * own transaction), so no service can have taken the provider in between; a lost race reads again.
 */
export async function removeProvider(
  medspaId: string,
  id: string,
  options: WriteOptions,
): Promise<{ id: string; deleted: true }> {
  await retry(
    async () => {
      const provider = await readProviderForDeletion(medspaId, id);
      if (!provider) throw new AppError('PROVIDER_NOT_FOUND');
      if (options.ifMatch !== undefined && options.ifMatch !== provider.version) throw new AppError('VERSION_CONFLICT');
      const services = await servicesCertifying(medspaId, id);
      if (services.length > MAX_SERVICES_PER_DELETION) {
        throw new AppError(
          'CONFLICT',
          `The provider is certified for ${services.length} services; unassign it from some (at most ${MAX_SERVICES_PER_DELETION} may remain) and delete again`,
        );
      }
      const result = await commitProviderDeletion(medspaId, id, services, {
        expectedVersion: options.ifMatch,
        certificationSeq: provider.certificationSeq,
        now: options.now.toISOString(),
        writes: options.writes,
      });
      if (result.ok) return { done: true };
      // A service changed, or a certification came in, since the read: look again.
      if (result.failed === 'service' || result.failed === 'certified') return { retry: 'later' };
      throw failureOf(versionedFailures('provider'), { failed: result.failed });
    },
    {
      attempts: 10,
      exhausted: () => {
        throw new AppError('CONFLICT', "The provider's services are changing concurrently; try again");
      },
    },
  );
  return { id, deleted: true };
}

/**
 * A page of live resources, in id order (stable across pages). `query` is the list's validated
 * query: its `limit` and `cursor`, and the filters its cursors are bound to (`filter` tests them
 * on the items).
 */
export async function listResources<K extends ResourceKind>(
  kind: K,
  medspaId: string,
  query: { limit: number; cursor?: string } & Record<string, unknown>,
  filter?: Filter,
): Promise<ListResult<ResourceRecord<K>>> {
  return toListResult(await listLiveEntities(medspaId, TYPE[kind], pageRequest(medspaId, kind, query), filter));
}

// ---------------------------------------------------------------------------------------------
// Rooms and equipment

export const createFacility = (
  kind: FacilityKind,
  medspaId: string,
  input: CreateFacilityInput,
  now: Date,
  writes?: RequestWrites,
) =>
  createResource(
    kind,
    medspaId,
    { name: input.name, description: input.description ?? null, active: input.active },
    now,
    writes,
  );

export const changeFacility = (
  kind: FacilityKind,
  medspaId: string,
  id: string,
  changes: UpdateFacilityInput,
  options: WriteOptions,
) => changeResource(kind, medspaId, id, changes, options);

// ---------------------------------------------------------------------------------------------
// Providers

export const fullName = (provider: { first_name: string; last_name: string }) =>
  `${provider.first_name} ${provider.last_name}`;

/** Every weekday present (missing days are not worked), periods sorted by start. */
export function normalizeWorkingHours(hours: WorkingHours = {}, base: WorkingHours = {}): WorkingHours {
  return Object.fromEntries(
    WEEKDAYS.map((day) => [
      day,
      [...(hours[day] ?? base[day] ?? [])].map(({ start, end }) => ({ start, end })).sort(byStart),
    ]),
  );
}

/** Instants stored as UTC ISO (`Date.toISOString()`), sorted by start; `reason` only when given. */
export function normalizeTimeOff(entries: TimeOff[] = []): TimeOff[] {
  return entries
    .map((entry) => ({
      start: new Date(entry.start).toISOString(),
      end: new Date(entry.end).toISOString(),
      ...(entry.reason ? { reason: entry.reason } : {}),
    }))
    .sort(byStart);
}

export const createProvider = (medspaId: string, input: CreateProviderInput, now: Date, writes?: RequestWrites) =>
  createResource(
    'provider',
    medspaId,
    {
      first_name: input.first_name,
      last_name: input.last_name,
      full_name: fullName(input),
      email: input.email ?? null,
      title: input.title ?? null,
      working_hours: normalizeWorkingHours(input.working_hours),
      time_off: normalizeTimeOff(input.time_off),
      active: input.active,
    },
    now,
    writes,
  );

/** `full_name` follows the names; `working_hours` days given replace those days only; `time_off` is replaced. */
export const changeProvider = (medspaId: string, id: string, changes: UpdateProviderInput, options: WriteOptions) =>
  changeFromCurrent('provider', medspaId, id, options, (current) => ({
    ...changes,
    full_name: fullName({
      first_name: changes.first_name ?? current.first_name,
      last_name: changes.last_name ?? current.last_name,
    }),
    working_hours: changes.working_hours && normalizeWorkingHours(changes.working_hours, current.working_hours),
    time_off: changes.time_off && normalizeTimeOff(changes.time_off),
  }));
