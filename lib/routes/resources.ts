import type * as z from '../schemas/zod';
import { ALLOW, type Role } from '../auth/roles';
import { defineRoutes, list, route } from '../http/route';
import type { TableWrites } from '../db/table-writes';
import type { ErrorCode } from '../errors';
import { Deleted, PageQuery } from '../schemas/common';
import * as r from '../schemas/resources';

interface KindSpec<S extends string, P extends string, Item extends z.ZodMiniType, Create extends z.ZodMiniType, Update extends z.ZodMiniType, Query extends z.ZodMiniType> {
  /** Operation name parts: `list${plural}`, `create${single}`, ... */
  single: S;
  plural: P;
  /** Handler folder and path segment: `/v1/${group}`, `functions/${group}/`. */
  group: string;
  /** For summaries. */
  noun: string;
  item: Item;
  create: Create;
  update: Update;
  query?: Query;
  write: readonly Role[];
  /** What create, update (and delete) write, for their roles. */
  writes: { create: TableWrites; update: TableWrites; delete?: TableWrites };
  /** The 404 of an unknown `{id}`. */
  notFound: ErrorCode;
  /** What create, update (and delete) answer besides (a referenced id that is absent, a conflict). */
  errors?: { create?: readonly ErrorCode[]; update?: readonly ErrorCode[]; delete?: readonly ErrorCode[] };
}

type AnyKind = KindSpec<string, string, z.ZodMiniType, z.ZodMiniType, z.ZodMiniType, z.ZodMiniType>;

/** A kind's spec, built like a row (it names the kind's schemas): `/* @__PURE__ *\/ kind(() => ({ ... }))`. */
/* @__NO_SIDE_EFFECTS__ */
export function kind<const S extends string, const P extends string, Item extends z.ZodMiniType, Create extends z.ZodMiniType, Update extends z.ZodMiniType, Query extends z.ZodMiniType = typeof PageQuery>(
  spec: () => KindSpec<S, P, Item, Create, Update, Query>,
) {
  return spec();
}

/**
 * A kind's rows, one function each (list, create, get, PATCH, soft DELETE), so a function's bundle
 * keeps only its own row (lib/http/route.ts `route`). Reads for every role, writes for `write`.
 */
/* @__NO_SIDE_EFFECTS__ */
export function listRoute<const P extends string, Item extends z.ZodMiniType, Query extends z.ZodMiniType>(spec: AnyKind & { plural: P; item: Item; query?: Query }) {
  return route(`list${spec.plural}`, () => ({
    method: 'GET', path: `/v1/${spec.group}`, group: spec.group, summary: `List ${spec.group}`, auth: ALLOW.readAll, query: (spec.query ?? PageQuery) as Query, response: list(spec.item),
  }) as const);
}

/* @__NO_SIDE_EFFECTS__ */
export function createRoute<const S extends string, Item extends z.ZodMiniType, Create extends z.ZodMiniType>(spec: AnyKind & { single: S; item: Item; create: Create }) {
  return route(`create${spec.single}`, () => ({
    method: 'POST', path: `/v1/${spec.group}`, group: spec.group, summary: `Create a ${spec.noun}`, auth: spec.write, body: spec.create, response: spec.item,
    writes: spec.writes.create, errors: spec.errors?.create,
  }) as const);
}

/* @__NO_SIDE_EFFECTS__ */
export function getRoute<const S extends string, Item extends z.ZodMiniType>(spec: AnyKind & { single: S; item: Item }) {
  return route(`get${spec.single}`, () => ({
    method: 'GET', path: `/v1/${spec.group}/{id}`, group: spec.group, summary: `Get a ${spec.noun}`, auth: ALLOW.readAll, params: r.ResourceParams, response: spec.item, errors: [spec.notFound],
  }) as const);
}

/* @__NO_SIDE_EFFECTS__ */
export function updateRoute<const S extends string, Item extends z.ZodMiniType, Update extends z.ZodMiniType>(spec: AnyKind & { single: S; item: Item; update: Update }) {
  return route(`update${spec.single}`, () => ({
    method: 'PATCH', path: `/v1/${spec.group}/{id}`, group: spec.group, summary: `Change a ${spec.noun}`, auth: spec.write, params: r.ResourceParams, body: spec.update, response: spec.item,
    writes: spec.writes.update, errors: [spec.notFound, ...(spec.errors?.update ?? [])],
  }) as const);
}

/** A soft DELETE: the resource is hidden; appointments keep referring to it. */
/* @__NO_SIDE_EFFECTS__ */
export function deleteRoute<const S extends string>(spec: AnyKind & { single: S }) {
  return route(`delete${spec.single}`, () => ({
    method: 'DELETE', path: `/v1/${spec.group}/{id}`, group: spec.group, summary: `Delete a ${spec.noun} (then 404; appointments keep it)`,
    auth: spec.write, params: r.ResourceParams, response: Deleted, writes: spec.writes.delete, errors: [spec.notFound, ...(spec.errors?.delete ?? [])],
  }) as const);
}

/** A kind kept in its own collection partition: created, updated, and soft-deleted (an update). */
const ownCollection = (partition: 'providers' | 'rooms' | 'equipment') => ({
  create: { [partition]: ['put'] },
  update: { [partition]: ['update'] },
  delete: { [partition]: ['update'] },
}) as const;

const providers = /* @__PURE__ */ kind(() => ({
  single: 'Provider', plural: 'Providers', group: 'providers', noun: 'provider', item: r.Provider, create: r.CreateProviderBody, update: r.UpdateProviderBody, write: ALLOW.catalogWrite,
  notFound: 'PROVIDER_NOT_FOUND', errors: { delete: ['CONFLICT'] },
  // Deleting a provider also withdraws its certifications from the services naming it.
  writes: { ...ownCollection('providers'), delete: { providers: ['update'], services: ['update'] } },
}));
export const listProviders = /* @__PURE__ */ listRoute(providers);
export const createProvider = /* @__PURE__ */ createRoute(providers);
export const getProvider = /* @__PURE__ */ getRoute(providers);
export const updateProvider = /* @__PURE__ */ updateRoute(providers);
export const deleteProvider = /* @__PURE__ */ deleteRoute(providers);

const rooms = /* @__PURE__ */ kind(() => ({ single: 'Room', plural: 'Rooms', group: 'rooms', noun: 'room', item: r.Room, create: r.CreateRoomBody, update: r.UpdateRoomBody, write: ALLOW.catalogWrite, writes: ownCollection('rooms'), notFound: 'ROOM_NOT_FOUND' }));
export const listRooms = /* @__PURE__ */ listRoute(rooms);
export const createRoom = /* @__PURE__ */ createRoute(rooms);
export const getRoom = /* @__PURE__ */ getRoute(rooms);
export const updateRoom = /* @__PURE__ */ updateRoute(rooms);
export const deleteRoom = /* @__PURE__ */ deleteRoute(rooms);

const equipment = /* @__PURE__ */ kind(() => ({
  single: 'Equipment', plural: 'Equipment', group: 'equipment', noun: 'piece of equipment', item: r.Equipment, create: r.CreateEquipmentBody, update: r.UpdateEquipmentBody, write: ALLOW.catalogWrite,
  writes: ownCollection('equipment'), notFound: 'EQUIPMENT_NOT_FOUND',
}));
export const listEquipment = /* @__PURE__ */ listRoute(equipment);
export const createEquipment = /* @__PURE__ */ createRoute(equipment);
export const getEquipment = /* @__PURE__ */ getRoute(equipment);
export const updateEquipment = /* @__PURE__ */ updateRoute(equipment);
export const deleteEquipment = /* @__PURE__ */ deleteRoute(equipment);

// Services are deactivated (active: false), never deleted.
const services = /* @__PURE__ */ kind(() => ({
  single: 'Service', plural: 'Services', group: 'services', noun: 'service', item: r.Service, create: r.CreateServiceBody, update: r.UpdateServiceBody, query: r.ServiceListQuery, write: ALLOW.catalogWrite,
  notFound: 'SERVICE_NOT_FOUND', errors: { create: ['PROVIDER_NOT_FOUND'], update: ['PROVIDER_NOT_FOUND'] },
  // A provider keeps the list of services it is certified for.
  writes: { create: { providers: ['update'], services: ['put'] }, update: { providers: ['update'], services: ['update'] } },
}));
export const listServices = /* @__PURE__ */ listRoute(services);
export const createService = /* @__PURE__ */ createRoute(services);
export const getService = /* @__PURE__ */ getRoute(services);
export const updateService = /* @__PURE__ */ updateRoute(services);

export const assignServiceProvider = /* @__PURE__ */ route('assignServiceProvider', () => ({
  method: 'POST', path: '/v1/services/{id}/providers', group: 'services', successStatus: 200, summary: 'Certify a provider for a service (idempotent)',
  auth: ALLOW.catalogWrite, params: r.ResourceParams, body: r.AssignProviderBody, response: r.Service,
  errors: ['SERVICE_NOT_FOUND', 'PROVIDER_NOT_FOUND'],
  writes: { providers: ['update'], services: ['update'] },
}));

export const unassignServiceProvider = /* @__PURE__ */ route('unassignServiceProvider', () => ({
  method: 'DELETE', path: '/v1/services/{id}/providers/{provider_id}', group: 'services', summary: 'Withdraw a provider\'s certification for a service',
  auth: ALLOW.catalogWrite, params: r.ServiceProviderParams, response: Deleted,
  errors: ['SERVICE_NOT_FOUND', 'PROVIDER_NOT_FOUND'],
  writes: { services: ['update'] },
}));

/** Setup resources scheduling needs (API reference, other resources): providers, rooms, equipment, services. Clients: ./clients. */
export const resourceRoutes = /* @__PURE__ */ defineRoutes({
  listProviders, createProvider, getProvider, updateProvider, deleteProvider,
  listRooms, createRoom, getRoom, updateRoom, deleteRoom,
  listEquipment, createEquipment, getEquipment, updateEquipment, deleteEquipment,
  listServices, createService, getService, updateService,
  assignServiceProvider, unassignServiceProvider,
});
