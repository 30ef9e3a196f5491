import type { RequestWrites } from '../db/request-writes';
import { randomUUID } from 'node:crypto';
import { pageRequest } from '../db/cursor';
import { afterUpdate, changesNothing, conditionFailure, type Page, type QueryPageInput } from '../db/entities';
import type { EntityType } from '../db/keys';
import {
  commitNewService,
  commitProviderDeletion,
  commitServiceChange,
  getLiveEntities,
  getLiveEntity,
  listLiveEntities,
  readProviderForDeletion,
  NOT_FOUND_CODE,
  putNewResource,
  servicesCertifying,
  updateLiveEntity,
  type ServiceWriteResult,
} from '../db/resources';
import type { TimeOff, WorkingHours } from '../domain/availability';
import { byStart, WEEKDAYS } from '../domain/time';
import { AppError, isAppError } from '../errors';
import { toListResult, type ListResult } from './list-result';
import { untilDone } from './retry';
import type { ClientRecord, FacilityRecord, ProviderRecord, ServiceRecord } from '../domain/records';
import type { CreateFacilityInput, CreateProviderInput, CreateServiceInput, UpdateFacilityInput, UpdateProviderInput, UpdateServiceInput } from '../schemas/resources';

/**
 * Setup resources (API reference, other resources): one generic create / read / change / soft delete / list serving
 * every kind, plus the rules that are specific to a kind (provider names and hours, service
 * certification). Clients, with their search index and erasure, are in ./clients. Handlers in
 * functions/<group>/ are one-line adapters.
 */

export interface ResourceRecords {
  provider: ProviderRecord;
  room: FacilityRecord;
  equipment: FacilityRecord;
  service: ServiceRecord;
  client: ClientRecord;
}
export type ResourceKind = keyof ResourceRecords;
/** Services are deactivated (`active: false`), never deleted; clients are deleted by ./clients (erasure, search index, cascade). */
export type DeletableKind = Exclude<ResourceKind, 'service' | 'client'>;
export type FacilityKind = 'room' | 'equipment';

const TYPE = {
  provider: 'PROVIDER',
  room: 'ROOM',
  equipment: 'EQUIPMENT',
  service: 'SERVICE',
  client: 'CLIENT',
} as const satisfies Record<ResourceKind, EntityType>;

const notFoundOf = (kind: ResourceKind) => NOT_FOUND_CODE[TYPE[kind]];

type Meta = 'id' | 'medspa_id' | 'version' | 'created_at' | 'updated_at' | 'deleted_at';
export type Fields<K extends ResourceKind> = Omit<ResourceRecords[K], Meta>;

export interface WriteOptions {
  /** The `If-Match` version, if the caller sent one. */
  ifMatch?: number;
  now: Date;
  /** The request's own writes (its audit entry), committed with the change's transaction. */
  writes?: RequestWrites;
}


// ---------------------------------------------------------------------------------------------
// Generic operations

/** The live (not deleted) resource, or null for unknown, deleted and malformed ids. */
export const findResource = <K extends ResourceKind>(kind: K, medspaId: string, id: string) =>
  getLiveEntity<ResourceRecords[K]>(medspaId, TYPE[kind], id);

/** Several live resources of one kind in one round trip, keyed by id (unknown ids are absent). */
export const findResources = <K extends ResourceKind>(kind: K, medspaId: string, ids: readonly string[]) =>
  getLiveEntities<ResourceRecords[K]>(medspaId, TYPE[kind], ids);

/** The live resource, or the kind's 404 (PROVIDER_NOT_FOUND, ROOM_NOT_FOUND, ...). */
export async function readResource<K extends ResourceKind>(kind: K, medspaId: string, id: string): Promise<ResourceRecords[K]> {
  const found = await findResource(kind, medspaId, id);
  if (!found) throw new AppError(notFoundOf(kind));
  return found;
}

export async function createResource<K extends ResourceKind>(kind: K, medspaId: string, fields: Fields<K>, now: Date): Promise<ResourceRecords[K]> {
  const at = now.toISOString();
  const record = { id: randomUUID(), medspa_id: medspaId, ...fields, version: 1, created_at: at, updated_at: at } as ResourceRecords[K];
  return putNewResource(TYPE[kind], record);
}

/** A PATCH: only the fields given change (null clears a nullable one); version +1. */
export const changeResource = <K extends ResourceKind>(kind: K, medspaId: string, id: string, changes: Partial<Fields<K>>, options: WriteOptions) =>
  updateLiveEntity<ResourceRecords[K]>(medspaId, TYPE[kind], id, changes, {
    notFound: notFoundOf(kind),
    expectedVersion: options.ifMatch,
    now: options.now.toISOString(),
  });

/**
 * A change computed from the current state (merges, derived fields, set membership), written
 * only if nothing changed in between. `build` returns null when there is nothing to write; a
 * change to the values already stored is no write either.
 * Without If-Match a concurrent writer just means another try; with it, the caller's version rules.
 * `commit` writes the change conditioned on `current.version` (default: a versioned update).
 */
export async function changeFromCurrent<K extends ResourceKind>(
  kind: K,
  medspaId: string,
  id: string,
  options: WriteOptions,
  build: (current: ResourceRecords[K]) => Promise<Partial<Fields<K>> | null> | Partial<Fields<K>> | null,
  commit: (changes: Partial<Fields<K>>, current: ResourceRecords[K]) => Promise<ResourceRecords[K]> = (changes, current) =>
    changeResource(kind, medspaId, id, changes, { now: options.now, ifMatch: current.version }),
): Promise<ResourceRecords[K]> {
  for (let attempt = 1; ; attempt++) {
    const current = await readResource(kind, medspaId, id);
    if (options.ifMatch !== undefined && options.ifMatch !== current.version) throw new AppError('VERSION_CONFLICT');
    const changes = await build(current);
    // Nothing to write, or values equal to the stored ones: no change (same version, same updated_at).
    if (changes === null || changesNothing(changes, current)) return current;
    try {
      return await commit(changes, current);
    } catch (error) {
      const retry = options.ifMatch === undefined && isAppError(error) && error.code === 'VERSION_CONFLICT' && attempt < 5;
      if (!retry) throw error;
    }
  }
}

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
  await changeResource(kind, medspaId, id, { deleted_at: options.now.toISOString() } as Partial<Fields<typeof kind>>, options);
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
export async function removeProvider(medspaId: string, id: string, options: WriteOptions): Promise<{ id: string; deleted: true }> {
  await untilDone(async () => {
    const provider = await readProviderForDeletion(medspaId, id);
    if (!provider) throw new AppError('PROVIDER_NOT_FOUND');
    if (options.ifMatch !== undefined && options.ifMatch !== provider.version) throw new AppError('VERSION_CONFLICT');
    const services = await servicesCertifying(medspaId, id);
    if (services.length > MAX_SERVICES_PER_DELETION) {
      throw new AppError('CONFLICT', `The provider is certified for ${services.length} services; unassign it from some (at most ${MAX_SERVICES_PER_DELETION} may remain) and delete again`);
    }
    const result = await commitProviderDeletion(medspaId, id, services, {
      expectedVersion: options.ifMatch,
      certificationSeq: provider.certificationSeq,
      now: options.now.toISOString(),
      writes: options.writes,
    });
    if (result.ok) return { done: true };
    if (result.failed === 'service') return { retry: 'later' };
    const old = result.old;
    if (!old || old.deleted_at) throw new AppError('PROVIDER_NOT_FOUND');
    if (options.ifMatch !== undefined && old.version !== options.ifMatch) throw new AppError('VERSION_CONFLICT');
    // A certification (or a change) came in since the read: look again.
    return { retry: 'later' };
  }, () => new AppError('CONFLICT', "The provider's services are changing concurrently; try again"));
  return { id, deleted: true };
}

/**
 * A page of live resources, in id order (stable across pages). `query` is the list's validated
 * query: its `limit` and `cursor`, and the filters its cursors are bound to (`filter` is their
 * DynamoDB form).
 */
export async function listResources<K extends ResourceKind>(
  kind: K,
  medspaId: string,
  query: { limit: number; cursor?: string } & Record<string, unknown>,
  filter?: QueryPageInput['filter'],
): Promise<ListResult<ResourceRecords[K]>> {
  return toListResult(await listLiveEntities<ResourceRecords[K]>(medspaId, TYPE[kind], pageRequest(medspaId, kind, query), filter));
}

// ---------------------------------------------------------------------------------------------
// Rooms and equipment

export const createFacility = (kind: FacilityKind, medspaId: string, input: CreateFacilityInput, now: Date) =>
  createResource(kind, medspaId, { name: input.name, description: input.description ?? null, active: input.active }, now);

export const changeFacility = (kind: FacilityKind, medspaId: string, id: string, changes: UpdateFacilityInput, options: WriteOptions) =>
  changeResource(kind, medspaId, id, changes, options);

// ---------------------------------------------------------------------------------------------
// Providers

export const fullName = (provider: { first_name: string; last_name: string }) => `${provider.first_name} ${provider.last_name}`;

/** Every weekday present (missing days are not worked), periods sorted by start. */
export function normalizeWorkingHours(hours: WorkingHours = {}, base: WorkingHours = {}): WorkingHours {
  return Object.fromEntries(
    WEEKDAYS.map((day) => [day, [...(hours[day] ?? base[day] ?? [])].map(({ start, end }) => ({ start, end })).sort(byStart)]),
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

export const createProvider = (medspaId: string, input: CreateProviderInput, now: Date) =>
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
  );

/** `full_name` follows the names; `working_hours` days given replace those days only; `time_off` is replaced. */
export const changeProvider = (medspaId: string, id: string, changes: UpdateProviderInput, options: WriteOptions) =>
  changeFromCurrent('provider', medspaId, id, options, (current) => ({
    ...changes,
    full_name: fullName({ first_name: changes.first_name ?? current.first_name, last_name: changes.last_name ?? current.last_name }),
    working_hours: changes.working_hours && normalizeWorkingHours(changes.working_hours, current.working_hours),
    time_off: changes.time_off && normalizeTimeOff(changes.time_off),
  }));

// ---------------------------------------------------------------------------------------------
// Services

/** Unique provider ids, in order, each a live provider of the practice (else 404 PROVIDER_NOT_FOUND). */
export async function checkProviders(medspaId: string, ids: readonly string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  const found = await findResources('provider', medspaId, unique);
  const missing = unique.find((id) => !found.has(id));
  if (missing !== undefined) throw new AppError('PROVIDER_NOT_FOUND', `Provider ${missing} does not exist`);
  return unique;
}

/** A failed service write as the caller's error: the service's 404 or a stale version, or the deleted provider's 404. */
function serviceWriteError(result: Exclude<ServiceWriteResult, { ok: true }>): AppError {
  if (result.failed === 'provider') return new AppError('PROVIDER_NOT_FOUND', `Provider ${result.providerId} does not exist`);
  return conditionFailure(result.old ?? undefined, 'SERVICE_NOT_FOUND');
}

/** Commits a service change on the version read; the providers it newly certifies must still be live at that moment. */
const commitService = (medspaId: string, options: WriteOptions) => async (changes: Partial<Fields<'service'>>, current: ServiceRecord): Promise<ServiceRecord> => {
  const at = options.now.toISOString();
  const newProviderIds = (changes.provider_ids ?? []).filter((id) => !current.provider_ids.includes(id));
  const result = await commitServiceChange(medspaId, current.id, changes, { expectedVersion: current.version, now: at, newProviderIds, writes: options.writes });
  if (!result.ok) throw serviceWriteError(result);
  return afterUpdate(current, changes, at);
};

export async function createService(medspaId: string, input: CreateServiceInput, now: Date, writes?: RequestWrites): Promise<ServiceRecord> {
  const at = now.toISOString();
  const service: ServiceRecord = {
    id: randomUUID(),
    medspa_id: medspaId,
    name: input.name,
    description: input.description ?? null,
    category: input.category ?? null,
    price_cents: input.price_cents,
    duration_minutes: input.duration_minutes,
    active: input.active,
    provider_ids: await checkProviders(medspaId, input.provider_ids ?? []),
    version: 1,
    created_at: at,
    updated_at: at,
  };
  const result = await commitNewService(service, writes);
  if (!result.ok) throw result.failed === 'provider' ? serviceWriteError(result) : new Error('service id collision');
  return service;
}

export async function changeService(medspaId: string, id: string, changes: UpdateServiceInput, options: WriteOptions) {
  if (!changes.provider_ids) return changeResource('service', medspaId, id, changes, options);
  // The service's own 404 comes before its providers' (API reference, errors's order): read, then check them.
  return changeFromCurrent('service', medspaId, id, options, async () => ({ ...changes, provider_ids: await checkProviders(medspaId, changes.provider_ids!) }), commitService(medspaId, options));
}

export function listServices(medspaId: string, query: { limit: number; cursor?: string; category?: string }) {
  const filter = query.category === undefined ? undefined : { expression: '#category = :category', names: { '#category': 'category' }, values: { ':category': query.category } };
  return listResources('service', medspaId, query, filter);
}

/** Certifies a provider for a service. Idempotent: an assigned provider leaves the service unchanged. */
export const assignServiceProvider = (medspaId: string, serviceId: string, providerId: string, now: Date, writes?: RequestWrites) =>
  changeFromCurrent('service', medspaId, serviceId, { now, writes }, async (service) => {
    await readResource('provider', medspaId, providerId);
    return service.provider_ids.includes(providerId) ? null : { provider_ids: [...service.provider_ids, providerId] };
  }, commitService(medspaId, { now, writes }));

/**
 * Withdraws a certification (a DELETE: honours If-Match on the service and answers the deletion
 * object, the provider's id). Idempotent for a live provider. A deletion withdraws its provider
 * everywhere itself; a deleted provider's id still listed (written before that rule) can still be removed.
 */
export async function unassignServiceProvider(medspaId: string, serviceId: string, providerId: string, options: WriteOptions) {
  await changeFromCurrent('service', medspaId, serviceId, options, async (service) => {
    if (service.provider_ids.includes(providerId)) return { provider_ids: service.provider_ids.filter((id) => id !== providerId) };
    await readResource('provider', medspaId, providerId);
    return null;
  });
  return { id: providerId, deleted: true as const };
}

/** Whether the provider may perform the service (contract: assignment is certification). */
export const isCertified = (service: Pick<ServiceRecord, 'provider_ids'>, providerId: string) => service.provider_ids.includes(providerId);
