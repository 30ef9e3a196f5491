import type { z } from 'zod';
import { ALLOW, type Role } from '../auth/roles';
import { defineRoutes, list } from '../http/route';
import type { TableWrites } from '../db/table-writes';
import type { ErrorCode } from '../errors';
import { Deleted, PageQuery } from '../schemas/common';
import * as r from '../schemas/resources';

interface KindSpec<S extends string, P extends string, Item extends z.ZodType, Create extends z.ZodType, Update extends z.ZodType, Query extends z.ZodType> {
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

/** List, create, get and PATCH of one kind: reads for every role, writes for `write`. */
export function editableRoutes<const S extends string, const P extends string, Item extends z.ZodType, Create extends z.ZodType, Update extends z.ZodType, Query extends z.ZodType = typeof PageQuery>(
  spec: KindSpec<S, P, Item, Create, Update, Query>,
) {
  const { group, item, write, notFound, errors = {} } = spec;
  const path = `/v1/${group}`;
  const one = `${path}/{id}`;
  const listRoute = { method: 'GET', path, group, summary: `List ${group}`, auth: ALLOW.readAll, query: (spec.query ?? PageQuery) as Query, response: list(item) } as const;
  const createRoute = { method: 'POST', path, group, summary: `Create a ${spec.noun}`, auth: write, body: spec.create, response: item, writes: spec.writes.create, errors: errors.create } as const;
  const getRoute = { method: 'GET', path: one, group, summary: `Get a ${spec.noun}`, auth: ALLOW.readAll, params: r.ResourceParams, response: item, errors: [notFound] } as const;
  const updateRoute = {
    method: 'PATCH', path: one, group, summary: `Change a ${spec.noun}`, auth: write, params: r.ResourceParams, body: spec.update, response: item, writes: spec.writes.update,
    errors: [notFound, ...(errors.update ?? [])],
  } as const;
  return {
    [`list${spec.plural}`]: listRoute,
    [`create${spec.single}`]: createRoute,
    [`get${spec.single}`]: getRoute,
    [`update${spec.single}`]: updateRoute,
  } as Record<`list${P}`, typeof listRoute> & Record<`create${S}`, typeof createRoute> & Record<`get${S}`, typeof getRoute> & Record<`update${S}`, typeof updateRoute>;
}

/** The above plus a soft DELETE (the resource is hidden; appointments keep referring to it). */
function crudRoutes<const S extends string, const P extends string, Item extends z.ZodType, Create extends z.ZodType, Update extends z.ZodType>(
  spec: KindSpec<S, P, Item, Create, Update, typeof PageQuery>,
) {
  const deleteRoute = {
    method: 'DELETE', path: `/v1/${spec.group}/{id}`, group: spec.group, summary: `Delete a ${spec.noun} (then 404; appointments keep it)`,
    auth: spec.write, params: r.ResourceParams, response: Deleted, writes: spec.writes.delete, errors: [spec.notFound, ...(spec.errors?.delete ?? [])],
  } as const;
  return { ...editableRoutes(spec), [`delete${spec.single}`]: deleteRoute } as ReturnType<typeof editableRoutes<S, P, Item, Create, Update>> & Record<`delete${S}`, typeof deleteRoute>;
}

/** A kind kept in its own collection partition: created, updated, and soft-deleted (an update). */
const ownCollection = (partition: 'providers' | 'rooms' | 'equipment') => ({
  create: { [partition]: ['put'] },
  update: { [partition]: ['update'] },
  delete: { [partition]: ['update'] },
}) as const;

/** Setup resources scheduling needs (API reference, other resources): providers, rooms, equipment, services. Clients: ./clients. */
export const resourceRoutes = defineRoutes({
  ...crudRoutes({ single: 'Provider', plural: 'Providers', group: 'providers', noun: 'provider', item: r.Provider, create: r.CreateProviderBody, update: r.UpdateProviderBody, write: ALLOW.catalogWrite,
    notFound: 'PROVIDER_NOT_FOUND', errors: { delete: ['CONFLICT'] },
    // Deleting a provider also withdraws its certifications from the services naming it.
    writes: { ...ownCollection('providers'), delete: { providers: ['update'], services: ['update'] } } }),
  ...crudRoutes({ single: 'Room', plural: 'Rooms', group: 'rooms', noun: 'room', item: r.Room, create: r.CreateRoomBody, update: r.UpdateRoomBody, write: ALLOW.catalogWrite, writes: ownCollection('rooms'), notFound: 'ROOM_NOT_FOUND' }),
  ...crudRoutes({ single: 'Equipment', plural: 'Equipment', group: 'equipment', noun: 'piece of equipment', item: r.Equipment, create: r.CreateEquipmentBody, update: r.UpdateEquipmentBody, write: ALLOW.catalogWrite, writes: ownCollection('equipment'),
    notFound: 'EQUIPMENT_NOT_FOUND' }),
  // Services are deactivated (active: false), never deleted.
  ...editableRoutes({ single: 'Service', plural: 'Services', group: 'services', noun: 'service', item: r.Service, create: r.CreateServiceBody, update: r.UpdateServiceBody, query: r.ServiceListQuery, write: ALLOW.catalogWrite,
    notFound: 'SERVICE_NOT_FOUND', errors: { create: ['PROVIDER_NOT_FOUND'], update: ['PROVIDER_NOT_FOUND'] },
    // A provider keeps the list of services it is certified for.
    writes: { create: { providers: ['update'], services: ['put'] }, update: { providers: ['update'], services: ['update'] } } }),
  assignServiceProvider: {
    method: 'POST', path: '/v1/services/{id}/providers', group: 'services', successStatus: 200, summary: 'Certify a provider for a service (idempotent)',
    auth: ALLOW.catalogWrite, params: r.ResourceParams, body: r.AssignProviderBody, response: r.Service,
    errors: ['SERVICE_NOT_FOUND', 'PROVIDER_NOT_FOUND'],
    writes: { providers: ['update'], services: ['update'] },
  },
  unassignServiceProvider: {
    method: 'DELETE', path: '/v1/services/{id}/providers/{provider_id}', group: 'services', summary: 'Withdraw a provider\'s certification for a service',
    auth: ALLOW.catalogWrite, params: r.ServiceProviderParams, response: Deleted,
    errors: ['SERVICE_NOT_FOUND', 'PROVIDER_NOT_FOUND'],
    writes: { services: ['update'] },
  },
});
