import type * as z from '../schemas/zod';
import { ALLOW, type Role } from '../auth/roles';
import { defineRoutes, list, route } from '../http/route';
import type { TableReads, TableWrites } from '../db/table-writes';
import type { ErrorCode } from '../errors';
import { Deleted, PageQuery } from '../schemas/common';
import * as r from '../schemas/resources';

/**
 * What a kind's rows share, without its schemas: each row names the schemas it uses itself, so a
 * function's bundle builds only those (a get builds no create or PATCH body; docs/decisions/0011).
 */
interface KindSpec<S extends string, P extends string> {
  /** Operation name parts: `list${plural}`, `create${single}`, ... */
  single: S;
  plural: P;
  /** Handler folder and path segment: `/v1/${group}`, `functions/${group}/`. */
  group: string;
  /** For summaries. */
  noun: string;
  write: readonly Role[];
  /** What create, update (and delete) write, for their roles. */
  writes: { create: TableWrites; update: TableWrites; delete?: TableWrites };
  /** What each operation reads (the request chain's reads come beside), for their roles. */
  reads: { list: TableReads; create: TableReads; get: TableReads; update: TableReads; delete?: TableReads };
  /** The 404 of an unknown `{id}`. */
  notFound: ErrorCode;
  /** What create, update (and delete) answer besides (a referenced id that is absent, a conflict). */
  errors?: { create?: readonly ErrorCode[]; update?: readonly ErrorCode[]; delete?: readonly ErrorCode[] };
}

/** A kind's spec: `/* @__PURE__ *\/ kind({ ... })`. */
/* @__NO_SIDE_EFFECTS__ */
export function kind<const S extends string, const P extends string>(spec: KindSpec<S, P>) {
  return spec;
}

/**
 * A kind's rows, one function each (list, create, get, PATCH, soft DELETE), so a function's bundle
 * keeps only its own row (lib/http/route.ts `route`). Reads for every role, writes for `write`.
 */
/* @__NO_SIDE_EFFECTS__ */
export function listRoute<
  const P extends string,
  Item extends z.ZodMiniType,
  Query extends z.ZodMiniType = typeof PageQuery,
>(spec: KindSpec<string, P>, item: Item, query?: Query) {
  return route(
    `list${spec.plural}`,
    () =>
      ({
        method: 'GET',
        path: `/v1/${spec.group}`,
        group: spec.group,
        summary: `List ${spec.group}`,
        auth: ALLOW.readAll,
        query: (query ?? PageQuery) as Query,
        response: list(item),
        reads: spec.reads.list,
      }) as const,
  );
}

/* @__NO_SIDE_EFFECTS__ */
export function createRoute<const S extends string, Item extends z.ZodMiniType, Create extends z.ZodMiniType>(
  spec: KindSpec<S, string>,
  item: Item,
  create: Create,
) {
  return route(
    `create${spec.single}`,
    () =>
      ({
        method: 'POST',
        path: `/v1/${spec.group}`,
        group: spec.group,
        summary: `Create a ${spec.noun}`,
        auth: spec.write,
        body: create,
        response: item,
        writes: spec.writes.create,
        reads: spec.reads.create,
        errors: spec.errors?.create,
      }) as const,
  );
}

/* @__NO_SIDE_EFFECTS__ */
export function getRoute<const S extends string, Item extends z.ZodMiniType>(spec: KindSpec<S, string>, item: Item) {
  return route(
    `get${spec.single}`,
    () =>
      ({
        method: 'GET',
        path: `/v1/${spec.group}/{id}`,
        group: spec.group,
        summary: `Get a ${spec.noun}`,
        auth: ALLOW.readAll,
        params: r.ResourceParams,
        response: item,
        reads: spec.reads.get,
        errors: [spec.notFound],
      }) as const,
  );
}

/* @__NO_SIDE_EFFECTS__ */
export function updateRoute<const S extends string, Item extends z.ZodMiniType, Update extends z.ZodMiniType>(
  spec: KindSpec<S, string>,
  item: Item,
  update: Update,
) {
  return route(
    `update${spec.single}`,
    () =>
      ({
        method: 'PATCH',
        path: `/v1/${spec.group}/{id}`,
        group: spec.group,
        summary: `Change a ${spec.noun}`,
        auth: spec.write,
        params: r.ResourceParams,
        body: update,
        response: item,
        writes: spec.writes.update,
        reads: spec.reads.update,
        errors: [spec.notFound, ...(spec.errors?.update ?? [])],
      }) as const,
  );
}

/** A soft DELETE: the resource is hidden; appointments keep referring to it. */
/* @__NO_SIDE_EFFECTS__ */
export function deleteRoute<const S extends string>(spec: KindSpec<S, string>) {
  return route(
    `delete${spec.single}`,
    () =>
      ({
        method: 'DELETE',
        path: `/v1/${spec.group}/{id}`,
        group: spec.group,
        summary: `Delete a ${spec.noun} (then 404; appointments keep it)`,
        auth: spec.write,
        params: r.ResourceParams,
        response: Deleted,
        writes: spec.writes.delete,
        reads: spec.reads.delete ?? [],
        errors: [spec.notFound, ...(spec.errors?.delete ?? [])],
      }) as const,
  );
}

/** A kind kept in its own collection partition: created, updated, and soft-deleted (an update). */
const ownCollection = (partition: 'providers' | 'rooms' | 'equipment') =>
  ({
    create: { [partition]: ['put'] },
    update: { [partition]: ['update'] },
    delete: { [partition]: ['update'] },
  }) as const;

/** A kind read by id and listed from its own collection partition; a create or soft delete reads nothing (a conditional write). */
const ownReads = (partition: 'providers' | 'rooms' | 'equipment' | 'services') =>
  ({ list: [partition], create: [], get: [partition], update: [partition] }) as const;

const providers = /* @__PURE__ */ kind({
  single: 'Provider',
  plural: 'Providers',
  group: 'providers',
  noun: 'provider',
  write: ALLOW.catalogWrite,
  notFound: 'PROVIDER_NOT_FOUND',
  errors: { delete: ['CONFLICT'] },
  // Deleting a provider also withdraws its certifications from the services naming it.
  writes: { ...ownCollection('providers'), delete: { providers: ['update'], services: ['update'] } },
  // Deleting one reads the services it is certified for.
  reads: { ...ownReads('providers'), delete: ['providers', 'services'] },
});
export const listProviders = /* @__PURE__ */ listRoute(providers, r.Provider);
export const createProvider = /* @__PURE__ */ createRoute(providers, r.Provider, r.CreateProviderBody);
export const getProvider = /* @__PURE__ */ getRoute(providers, r.Provider);
export const updateProvider = /* @__PURE__ */ updateRoute(providers, r.Provider, r.UpdateProviderBody);
export const deleteProvider = /* @__PURE__ */ deleteRoute(providers);

const rooms = /* @__PURE__ */ kind({
  single: 'Room',
  plural: 'Rooms',
  group: 'rooms',
  noun: 'room',
  write: ALLOW.catalogWrite,
  writes: ownCollection('rooms'),
  reads: ownReads('rooms'),
  notFound: 'ROOM_NOT_FOUND',
});
export const listRooms = /* @__PURE__ */ listRoute(rooms, r.Room);
export const createRoom = /* @__PURE__ */ createRoute(rooms, r.Room, r.CreateRoomBody);
export const getRoom = /* @__PURE__ */ getRoute(rooms, r.Room);
export const updateRoom = /* @__PURE__ */ updateRoute(rooms, r.Room, r.UpdateRoomBody);
export const deleteRoom = /* @__PURE__ */ deleteRoute(rooms);

const equipment = /* @__PURE__ */ kind({
  single: 'Equipment',
  plural: 'Equipment',
  group: 'equipment',
  noun: 'piece of equipment',
  write: ALLOW.catalogWrite,
  writes: ownCollection('equipment'),
  reads: ownReads('equipment'),
  notFound: 'EQUIPMENT_NOT_FOUND',
});
export const listEquipment = /* @__PURE__ */ listRoute(equipment, r.Equipment);
export const createEquipment = /* @__PURE__ */ createRoute(equipment, r.Equipment, r.CreateEquipmentBody);
export const getEquipment = /* @__PURE__ */ getRoute(equipment, r.Equipment);
export const updateEquipment = /* @__PURE__ */ updateRoute(equipment, r.Equipment, r.UpdateEquipmentBody);
export const deleteEquipment = /* @__PURE__ */ deleteRoute(equipment);

// Services are deactivated (active: false), never deleted.
const services = /* @__PURE__ */ kind({
  single: 'Service',
  plural: 'Services',
  group: 'services',
  noun: 'service',
  write: ALLOW.catalogWrite,
  notFound: 'SERVICE_NOT_FOUND',
  errors: {
    create: ['PROVIDER_NOT_FOUND', 'FORM_TEMPLATE_NOT_FOUND'],
    update: ['PROVIDER_NOT_FOUND', 'FORM_TEMPLATE_NOT_FOUND'],
  },
  // A provider keeps the list of services it is certified for.
  writes: {
    create: { providers: ['update'], services: ['put'] },
    update: { providers: ['update'], services: ['update'] },
  },
  // Its certified providers and required form templates are read to check they exist.
  reads: {
    ...ownReads('services'),
    create: ['formTemplates', 'providers'],
    update: ['formTemplates', 'providers', 'services'],
  },
});
export const listServices = /* @__PURE__ */ listRoute(services, r.Service, r.ServiceListQuery);
export const createService = /* @__PURE__ */ createRoute(services, r.Service, r.CreateServiceBody);
export const getService = /* @__PURE__ */ getRoute(services, r.Service);
export const updateService = /* @__PURE__ */ updateRoute(services, r.Service, r.UpdateServiceBody);

export const assignServiceProvider = /* @__PURE__ */ route('assignServiceProvider', () => ({
  method: 'POST',
  path: '/v1/services/{id}/providers',
  group: 'services',
  successStatus: 200,
  summary: 'Certify a provider for a service (idempotent)',
  auth: ALLOW.catalogWrite,
  params: r.ResourceParams,
  body: r.AssignProviderBody,
  response: r.Service,
  errors: ['SERVICE_NOT_FOUND', 'PROVIDER_NOT_FOUND'],
  writes: { providers: ['update'], services: ['update'] },
  reads: ['providers', 'services'],
}));

export const unassignServiceProvider = /* @__PURE__ */ route('unassignServiceProvider', () => ({
  method: 'DELETE',
  path: '/v1/services/{id}/providers/{provider_id}',
  group: 'services',
  summary: "Withdraw a provider's certification for a service",
  auth: ALLOW.catalogWrite,
  params: r.ServiceProviderParams,
  response: Deleted,
  errors: ['SERVICE_NOT_FOUND', 'PROVIDER_NOT_FOUND'],
  writes: { services: ['update'] },
  reads: ['providers', 'services'],
}));

/** Setup resources scheduling needs (API reference, other resources): providers, rooms, equipment, services. Clients: ./clients. */
export const resourceRoutes = /* @__PURE__ */ defineRoutes({
  listProviders,
  createProvider,
  getProvider,
  updateProvider,
  deleteProvider,
  listRooms,
  createRoom,
  getRoom,
  updateRoom,
  deleteRoom,
  listEquipment,
  createEquipment,
  getEquipment,
  updateEquipment,
  deleteEquipment,
  listServices,
  createService,
  getService,
  updateService,
  assignServiceProvider,
  unassignServiceProvider,
});
