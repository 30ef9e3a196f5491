import type { RequestWrites } from '../db/request-writes';
import { randomUUID } from 'node:crypto';
import type * as z from '../schemas/zod';
import {
  appointmentIdsFrom,
  completedAppointmentsOf,
  findClientIndexEntries,
  putNewClient,
  treatmentRecordsOf,
  updateClientWithIndex,
  type ClientIndex,
} from '../db/clients';
import { openCursor, pageRequest, sealCursor } from '../crypto/cursor';
import { isDataFailure } from '../db/failure';
import { where } from '../db/query';
import { afterUpdate } from '../db/update';
import { clientSearchTerms, searchPrefixOf } from '../domain/client-search';
import { presentClient } from '../domain/presenters';
import type { AppointmentStatus } from '../domain/status';
import { AppError, isAppError } from '../errors';
import { PLAN_MANAGED_FIELDS } from '../domain/membership';
import type { ClientHistoryEntry } from '../schemas/clients';
import type { AppointmentRecord, ClientRecord } from '../domain/records';
import { getAppointment } from '../db/appointments';
import { isEntityId } from '../db/resources';
import type { Address, ClientView, CreateClientInput, UpdateClientInput } from '../schemas/resources';
import { changeStatus } from './appointment-status';
import { consentedClientDeletes } from '../db/contact-consents';
import type { ListedConsent } from '../domain/contact-consent';
import { assertConsentAlone, listConsentedClients } from './contact-consents';
import { erasePhotosOf } from './photo-erasure';
import { toListResult, type ListResult } from './list-result';
import { failureOf } from './failures';
import {
  changeFromCurrent,
  changeResource,
  findResources,
  listResources,
  readResource,
  versionedFailures,
  type Fields,
  type WriteOptions,
} from './resources';

/**
 * Clients (API reference, other resources): create / change / delete keep the search index in the same transaction
 * as the client; search, history, and the health score computed at read time.
 */

type ClientFields = Partial<Fields<'client'>>;

/**
 * Runs `read` beside the check that the client is live; an unknown, malformed or deleted client
 * answers CLIENT_NOT_FOUND before anything `read` complains about.
 */
export async function ofLiveClient<T>(medspaId: string, clientId: string, read: () => Promise<T>): Promise<T> {
  const [client, result] = await Promise.allSettled([readResource('client', medspaId, clientId), read()]);
  if (client.status === 'rejected') throw client.reason;
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}

/** The appointment a client's record names (`appointment_id`): none named, or a malformed id, reads as null. */
export const readNamedAppointment = async (medspaId: string, appointmentId: string | null) =>
  appointmentId && isEntityId(appointmentId) ? getAppointment(medspaId, appointmentId) : null;

/** A named appointment that is unknown or another client's is as absent: 404 APPOINTMENT_NOT_FOUND. */
export function checkClientsAppointment(
  clientId: string,
  appointmentId: string | null,
  appointment: AppointmentRecord | null,
): void {
  if (appointmentId && appointment?.client_id !== clientId) throw new AppError('APPOINTMENT_NOT_FOUND');
}

export const getClient = async (medspaId: string, id: string, now: Date) =>
  presentClient(await readResource('client', medspaId, id), now);

// ---------------------------------------------------------------------------------------------
// Writes

const ADDRESS_KEYS = ['line1', 'line2', 'city', 'region', 'postal_code', 'country'] as const;

function normalizeAddress(address: Partial<Address> | null | undefined): Address | null {
  if (!address) return null;
  return Object.fromEntries(ADDRESS_KEYS.map((key) => [key, address[key] || null])) as Address;
}

const uniqueTags = (tags: readonly string[]) => [...new Set(tags)];

/** What the client is found by. */
export const clientIndexOf = (
  client: Pick<ClientRecord, 'first_name' | 'last_name' | 'email' | 'phone' | 'membership_status'>,
): ClientIndex => ({
  terms: clientSearchTerms(client),
  membershipStatus: client.membership_status,
});

/** Fields the search index holds (terms, and membership as a filter): a change to one rewrites the index. */
const INDEXED_FIELDS = ['first_name', 'last_name', 'email', 'phone', 'membership_status'] as const;

/** A new client's record as stored, before its first write. */
export function newClientRecord(medspaId: string, input: CreateClientInput, now: Date): ClientRecord {
  const at = now.toISOString();
  return {
    id: randomUUID(),
    medspa_id: medspaId,
    first_name: input.first_name,
    last_name: input.last_name,
    email: input.email ?? null,
    phone: input.phone ?? null,
    date_of_birth: input.date_of_birth ?? null,
    address: normalizeAddress(input.address),
    membership_status: input.membership_status,
    membership_tier: input.membership_tier ?? null,
    membership_plan_id: null,
    tags: uniqueTags(input.tags ?? []),
    notes: input.notes ?? null,
    // Visit statistics: moved by completions, no-shows and payments (lib/db/client-stats.ts).
    last_visit_at: null,
    total_spent_cents: 0,
    visit_count: 0,
    no_show_count: 0,
    version: 1,
    created_at: at,
    updated_at: at,
  };
}

export async function createClient(
  medspaId: string,
  input: CreateClientInput,
  now: Date,
  writes?: RequestWrites,
): Promise<ClientView> {
  const client = newClientRecord(medspaId, input, now);
  await putNewClient(client, clientIndexOf(client), writes);
  return presentClient(client, now);
}

/**
 * Writes a change computed from `current` (conditioned on its version) with the index moved
 * from the current terms to the result's; a deleted result keeps no index entries.
 */
const commitWithIndex =
  (medspaId: string, id: string, { now, writes }: WriteOptions, unmanaged = false) =>
  async (changes: ClientFields, current: ClientRecord): Promise<ClientRecord> => {
    const at = now.toISOString();
    const next = afterUpdate(current, changes, at);
    const result = await updateClientWithIndex(medspaId, id, changes, {
      expectedVersion: current.version,
      now: at,
      before: clientIndexOf(current).terms,
      after: next.deleted_at ? { terms: [], membershipStatus: next.membership_status } : clientIndexOf(next),
      unmanaged,
      // A deleted client leaves the marketing consent lists with its deletion (section 14).
      alongside: next.deleted_at ? consentedClientDeletes(medspaId, id) : [],
      writes,
    });
    if (!result.ok) throw failureOf(versionedFailures('client'), result);
    return next;
  };

/** A PATCH. One that touches a searched field reads the client and rewrites its index in the same transaction. */
export async function changeClient(
  medspaId: string,
  id: string,
  input: UpdateClientInput,
  options: WriteOptions,
): Promise<ClientView> {
  const changes: ClientFields = {
    ...input,
    address: input.address === undefined ? undefined : normalizeAddress(input.address),
    tags: input.tags && uniqueTags(input.tags),
  };
  const indexed = INDEXED_FIELDS.some((field) => input[field] !== undefined);
  // While a membership plan governs them, the membership fields are the plan's: refused on the
  // client read, and the write is conditioned on no plan having taken over since (a sale in between).
  const managed = PLAN_MANAGED_FIELDS.some((field) => input[field] !== undefined);
  const build = (current: ClientRecord) => {
    if (managed && current.membership_plan_id)
      throw new AppError(
        'MEMBERSHIP_MANAGED_BY_PLAN',
        `membership_status and membership_tier follow the client's membership plan ${current.membership_plan_id}; pause, resume or cancel the plan instead`,
        {
          details: PLAN_MANAGED_FIELDS.filter((field) => input[field] !== undefined).map((path) => ({
            path,
            message: 'managed by the membership plan',
          })),
        },
      );
    return changes;
  };
  const changed =
    indexed || managed
      ? await changeFromCurrent('client', medspaId, id, options, build, commitWithIndex(medspaId, id, options, managed))
      : await changeResource('client', medspaId, id, changes, options);
  return presentClient(changed, options.now);
}

/**
 * What a deletion leaves of the client: no contact details, notes or tags, and placeholder names
 * (appointment lists and reports still name someone). Visit statistics stay, so reports stay right.
 */
const ERASED = {
  first_name: 'Deleted',
  last_name: 'Client',
  email: null,
  phone: null,
  date_of_birth: null,
  address: null,
  notes: null,
  tags: [],
} satisfies ClientFields;

/** Future appointments a deletion cancels (a checked-in one cannot be cancelled: the API reference's appointments). */
const CANCELLED_ON_DELETE: readonly AppointmentStatus[] = ['scheduled', 'confirmed', 'in_progress'];
export const CLIENT_DELETED_REASON = 'client_deleted';

/**
 * DELETE (API reference, other resources): erases the client's personal data and search entries and hides it (404
 * from then on) in one transaction, then cancels its appointments starting from now on with
 * reason `client_deleted`, and deletes their photos. Past and finished appointments keep pointing at the anonymised client.
 */
export async function removeClient(
  medspaId: string,
  id: string,
  options: WriteOptions,
): Promise<{ id: string; deleted: true }> {
  const erase = () => ({ ...ERASED, deleted_at: options.now.toISOString() }) as ClientFields;
  await changeFromCurrent('client', medspaId, id, options, erase, commitWithIndex(medspaId, id, options));
  await cancelFutureAppointments(medspaId, id, options.now);
  // Their photos too, images included (section 13).
  await erasePhotosOf(medspaId, id);
  return { id, deleted: true };
}

/**
 * Runs after the deletion committed, one appointment at a time (each frees its time in its own
 * transaction). gsi2 is eventually consistent, so a booking made in the same instant can be missed.
 */
async function cancelFutureAppointments(medspaId: string, clientId: string, now: Date): Promise<void> {
  const ids = await appointmentIdsFrom(medspaId, clientId, now.toISOString(), CANCELLED_ON_DELETE);
  for (const appointmentId of ids) {
    try {
      await changeStatus(medspaId, appointmentId, 'cancelled', {
        now,
        reason: CLIENT_DELETED_REASON,
        assessFees: false,
      });
    } catch (error) {
      // Checked in, cancelled or deleted meanwhile (or busy): nothing this deletion can cancel now.
      if (!isAppError(error) && !isDataFailure(error, 'busy')) throw error;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Reads

export interface ClientListInput {
  limit: number;
  cursor?: string;
  q?: string;
  membership_status?: ClientRecord['membership_status'];
  consent?: ListedConsent;
}

/** The list (in id order) or, with a `q` that is not blank, the search; both take `membership_status`. */
export async function listClients(
  medspaId: string,
  input: ClientListInput,
  now: Date,
): Promise<ListResult<ClientView>> {
  assertConsentAlone(input);
  if (input.consent) return listConsentedClients(medspaId, input.consent, input, now);
  const prefix = input.q === undefined ? '' : searchPrefixOf(input.q);
  // On the list, `membership_status` filters the collection Query (and `total` counts with the same filter).
  const result = prefix
    ? await searchClients(medspaId, prefix, input)
    : await listResources(
        'client',
        medspaId,
        { limit: input.limit, cursor: input.cursor, membership_status: input.membership_status },
        where<ClientRecord>({ membership_status: input.membership_status }),
      );
  return { ...result, data: result.data.map((client) => presentClient(client, now)) };
}

/**
 * Search: one Query reads the keys of every index entry starting with the prefix (bounded by the
 * prefix, never a Scan), each client counted once, at its lowest matching term, so one matching
 * by first and full name appears once and pages never repeat it. `total` is the exact number of
 * distinct matching clients (deleted clients have no entries). The page is cut from that ordered
 * list after the cursor's term, and its clients are read in one BatchGet.
 */
async function searchClients(
  medspaId: string,
  prefix: string,
  input: ClientListInput,
): Promise<ListResult<ClientRecord>> {
  const firstMatch = new Map<string, string>();
  for (const entry of await findClientIndexEntries(medspaId, prefix, input.membership_status)) {
    if (!firstMatch.has(entry.clientId)) firstMatch.set(entry.clientId, entry.sk);
  }
  // Entries come in key order, so the clients are ordered by their first matching key.
  const matches = [...firstMatch].map(([clientId, sk]) => ({ clientId, sk }));
  // Bound to the normalised prefix, so `q=Emil` and `q= emil` share cursors; the position is the last key shown.
  const { scope } = pageRequest(medspaId, 'client-search', {
    limit: input.limit,
    q: prefix,
    membership_status: input.membership_status,
  });
  const position = openCursor(
    scope,
    input.cursor,
    (at) => typeof (at as { after?: unknown } | null)?.after === 'string',
  ) as { after: string } | undefined;
  const after = position?.after;
  const start = after === undefined ? 0 : matches.filter((match) => match.sk <= after).length;
  const page = matches.slice(start, start + input.limit);
  const clients = await findResources(
    'client',
    medspaId,
    page.map((match) => match.clientId),
  );
  const last = page[page.length - 1];
  const nextCursor = last && start + page.length < matches.length ? sealCursor(scope, { after: last.sk }) : null;
  const shown = page.filter((match) => clients.has(match.clientId));
  return {
    data: shown.map((match) => clients.get(match.clientId)!),
    pagination: { total: matches.length, next_cursor: nextCursor },
    // A page too large for one response is cut after a client shown (lib/http/response.ts).
    cursorAfter: (index) => (index >= shown.length - 1 ? nextCursor : sealCursor(scope, { after: shown[index].sk })),
  };
}

type HistoryEntry = z.output<typeof ClientHistoryEntry>;

/** Completed appointments, newest first, each with its treatment record (one BatchGet per page). */
export async function clientHistory(
  medspaId: string,
  clientId: string,
  query: { limit: number; cursor?: string },
): Promise<ListResult<HistoryEntry>> {
  const page = pageRequest(medspaId, 'client-history', { ...query, client_id: clientId });
  const appointments = await ofLiveClient(medspaId, clientId, () => completedAppointmentsOf(medspaId, clientId, page));
  const records = await treatmentRecordsOf(
    medspaId,
    appointments.items.map((appointment) => appointment.id),
  );
  return toListResult({
    ...appointments,
    items: appointments.items.map((appointment) => ({
      ...appointment,
      treatment_record: records.get(appointment.id) ?? null,
    })),
  });
}
