import { randomUUID } from 'node:crypto';
import { pageRequest } from '../crypto/cursor';
import { getAppointmentWithRecord, withoutPractice, type PublicTreatmentRecord } from '../db/appointments';
import type { RequestWrites } from '../db/request-writes';
import type { StockMove } from '../db/stock-moves';
import { commitRecordChange, listRevisions, readStock, type RecordChange } from '../db/treatment-records';
import type {
  AppointmentRecord,
  LotExposureRecord,
  LotRecord,
  ProductRecord,
  TreatmentProductUse,
  TreatmentRecord,
} from '../domain/records';
import type { AppointmentStatus } from '../domain/status';
import { localDateOf } from '../domain/time';
import { exposureChanges, stockDifference, stockTakes } from '../domain/treatment-records';
import { AppError, fieldError } from '../errors';
import { retry } from '../retry';
import type { AmendmentInput, TreatmentRecordInput } from '../schemas/treatment-records';
import { toListResult, type ListResult } from './list-result';
import { readPractice } from './practice';
import { lotError } from './products';

/**
 * Treatment records (API reference, appointments; clinical records: treatment records, sign and
 * lock). Every change is one transaction (lib/db/treatment-records.ts) conditioned on the record's
 * version: a draft PUT takes stock by the difference from the draft it replaces; sign turns the
 * draft into revision 1; an amendment replaces a signed record with revision n + 1, stock again by
 * the difference. Expiry, recall and the stock floor are the write's own conditions.
 */

/** Treatment records are written once the client is in the chair, and after. */
const RECORDABLE: AppointmentStatus[] = ['checked_in', 'in_progress', 'completed'];

/** Enough tries for every record of a burst on one product to take its turn (each lost try means another committed). */
const STOCK_ATTEMPTS = 64;

interface ChangeOptions {
  now: Date;
  /** The caller's credential (client_id). */
  by: string;
  writes?: RequestWrites;
  /** If-Match: the record's version the caller saw (sign, amendments). */
  ifMatch?: number;
}

interface Loaded {
  appointment: AppointmentRecord;
  current: TreatmentRecord | null;
  products: Map<string, ProductRecord>;
  lots: Map<string, LotRecord>;
  /** The appointment's practice-local date: a lot that expired before it is refused. */
  usableOn: string;
}

const withPractice = (medspaId: string, record: PublicTreatmentRecord | null): TreatmentRecord | null =>
  record && { ...record, medspa_id: medspaId };

async function loadRecord(medspaId: string, appointmentId: string) {
  const { appointment, treatmentRecord } = await getAppointmentWithRecord(medspaId, appointmentId);
  if (!appointment) throw new AppError('APPOINTMENT_NOT_FOUND');
  return { appointment, current: withPractice(medspaId, treatmentRecord) };
}

/** The appointment, its record, and the products and lots the old and the new record name, in two round trips. */
async function load(medspaId: string, appointmentId: string, input: TreatmentRecordInput): Promise<Loaded> {
  const { appointment, current } = await loadRecord(medspaId, appointmentId);
  const named = [...(input.products_used ?? []), ...(current?.products_used ?? [])];
  const [practice, stock] = await Promise.all([
    readPractice(medspaId),
    readStock(
      medspaId,
      named.flatMap((item) => (item.product_id ? [item.product_id] : [])),
      (input.products_used ?? []).flatMap((item) => (item.lot_id ? [item.lot_id] : [])),
    ),
  ]);
  return { appointment, current, ...stock, usableOn: localDateOf(appointment.scheduled_at, practice.time_zone) };
}

const lotIdProblem = (index: number, message: string) =>
  fieldError(`products_used.${index}.lot_id`, message, `products_used[${index}].lot_id ${message}`);

/** The body's products as stored: each catalog product known, its lot named exactly when it tracks lots, names filled in. */
function productsUsed(input: TreatmentRecordInput, loaded: Loaded): TreatmentProductUse[] | undefined {
  return input.products_used?.map((item, index) => {
    if (!item.product_id) return { ...item, name: item.name! };
    const product = loaded.products.get(item.product_id);
    if (!product) throw new AppError('PRODUCT_NOT_FOUND', `products_used[${index}]: no such product`);
    if (product.tracks_lots && !item.lot_id) throw lotIdProblem(index, 'is required: this product tracks lots');
    if (!product.tracks_lots && item.lot_id)
      throw lotIdProblem(index, 'is not allowed: this product does not track lots');
    const lot = item.lot_id ? loaded.lots.get(item.lot_id) : undefined;
    if (item.lot_id && (!lot || lot.product_id !== product.id))
      throw new AppError('LOT_NOT_FOUND', `products_used[${index}]: no such lot of this product`);
    return { ...item, name: item.name ?? product.name, ...(lot ? { lot_number: lot.lot_number } : {}) };
  });
}

/** The stock moves and exposure items that replacing the current record by `record` makes (INSUFFICIENT_STOCK first, on the product). */
function stockOf(record: TreatmentRecord, loaded: Loaded, at: string): Pick<RecordChange, 'stock' | 'exposures'> {
  const before = stockTakes(loaded.current?.products_used);
  const after = stockTakes(record.products_used);
  const stock: StockMove[] = stockDifference(before, after).map((move) => {
    const product = loaded.products.get(move.product_id);
    if (!product) throw new AppError('PRODUCT_NOT_FOUND');
    const total = move.lines.reduce((sum, line) => sum + line.delta, 0);
    if (product.quantity_on_hand + total < 0)
      throw new AppError(
        'INSUFFICIENT_STOCK',
        `Only ${product.quantity_on_hand} of ${product.name} on hand; this record needs ${-total} more`,
      );
    return {
      product,
      reason: 'treatment',
      lines: move.lines.map((line) => ({ id: randomUUID(), ...line, unit_price_cents: null, note: null })),
      appointment_id: record.appointment_id,
      created_by: record.recorded_by,
      at,
      usableOn: loaded.usableOn,
    };
  });
  const { appointment } = loaded;
  const exposures = exposureChanges(before, after).map(
    (exposure): LotExposureRecord => ({
      medspa_id: record.medspa_id,
      ...exposure,
      appointment_id: appointment.id,
      client_id: appointment.client_id,
      provider_id: appointment.provider_id,
      treated_at: appointment.scheduled_at,
    }),
  );
  return { stock, exposures };
}

type Planned = { record: TreatmentRecord; revision: boolean; onLostRecord: 'reload' | 'conflict' };

/**
 * Plans the change from what is loaded, commits it, and plans again on a lost race: from the
 * product as it now is (a concurrent record or sale took stock), or, for a draft PUT, from a fresh
 * read of the record (sign and amendments answer 409 VERSION_CONFLICT instead: they were made
 * against the version their caller saw).
 */
async function writeRecord(
  medspaId: string,
  appointmentId: string,
  input: TreatmentRecordInput,
  options: ChangeOptions,
  /** Checks the record's state first, then asks for the body's products (their own checks come after). */
  plan: (loaded: Loaded, products: () => TreatmentProductUse[] | undefined) => Planned,
): Promise<PublicTreatmentRecord> {
  const at = options.now.toISOString();
  let loaded: Loaded | null = null;
  return retry<PublicTreatmentRecord>(
    async (attempt) => {
      loaded ??= await load(medspaId, appointmentId, input);
      const current = loaded;
      const planned = plan(current, () => productsUsed(input, current));
      const moves = stockOf(planned.record, loaded, at);
      const result = await commitRecordChange(
        {
          record: planned.record,
          expectedVersion: loaded.current?.version ?? null,
          revision: planned.revision,
          ...moves,
        },
        options.writes,
      );
      if (result.ok) return { done: withoutPractice(planned.record)! };
      if (result.failed === 'record') {
        if (planned.onLostRecord === 'conflict')
          throw new AppError('VERSION_CONFLICT', 'The treatment record changed meanwhile; read it again');
        loaded = null;
        return { retry: 'now' };
      }
      if (result.failed === 'lot') {
        const delta = moves.stock.flatMap((move) => move.lines).find((line) => line.lot_id === result.lotId)?.delta;
        throw lotError(result.refusal, result.lot, delta ?? 0);
      }
      if (!result.current) throw new AppError('PRODUCT_NOT_FOUND');
      loaded.products.set(result.current.id, result.current);
      // The new state is in hand; after a few lost turns, step aside a little so a burst spreads out.
      return { retry: attempt <= 3 ? 'now' : 'later' };
    },
    {
      attempts: STOCK_ATTEMPTS,
      exhausted: () => {
        throw new AppError('VERSION_CONFLICT', 'The stock this record takes is changing too fast; try again');
      },
    },
  );
}

const locked = () =>
  new AppError(
    'RECORD_LOCKED',
    'This treatment record is signed: change it with an amendment (POST .../treatment-record/amendments)',
  );

function checkIfMatch(current: TreatmentRecord, ifMatch: number | undefined) {
  if (ifMatch !== undefined && ifMatch !== current.version) throw new AppError('VERSION_CONFLICT');
}

/** The body's text fields and products, over the record's identity. */
const recordFrom = (
  input: TreatmentRecordInput,
  products: TreatmentProductUse[] | undefined,
  loaded: Loaded,
  options: ChangeOptions,
): Omit<TreatmentRecord, 'status' | 'signed_at' | 'signed_by' | 'revision' | 'amendment_reason'> => {
  const { products_used: _products, ...text } = input;
  const at = options.now.toISOString();
  return {
    ...text,
    ...(products ? { products_used: products } : {}),
    medspa_id: loaded.appointment.medspa_id,
    appointment_id: loaded.appointment.id,
    client_id: loaded.appointment.client_id,
    provider_id: loaded.appointment.provider_id,
    recorded_by: options.by,
    version: (loaded.current?.version ?? 0) + 1,
    created_at: loaded.current?.created_at ?? at,
    updated_at: at,
  };
};

/** PUT: writes or replaces the draft, taking stock by the difference (409 RECORD_LOCKED once signed). */
export function recordTreatment(
  medspaId: string,
  appointmentId: string,
  input: TreatmentRecordInput,
  options: ChangeOptions,
): Promise<PublicTreatmentRecord> {
  return writeRecord(medspaId, appointmentId, input, options, (loaded, products) => {
    const { appointment, current } = loaded;
    if (!RECORDABLE.includes(appointment.status))
      throw new AppError(
        'INVALID_STATUS_TRANSITION',
        `A treatment record needs a checked-in, in-progress or completed appointment (this one is ${appointment.status})`,
      );
    if (current?.status === 'signed') throw locked();
    return {
      record: {
        ...recordFrom(input, products(), loaded, options),
        status: 'draft',
        signed_at: null,
        signed_by: null,
        revision: null,
        amendment_reason: null,
      },
      revision: false,
      onLostRecord: 'reload',
    };
  });
}

/** An amendment of a signed record: revision n + 1, signed by the caller, stock by the difference. */
export function amendTreatmentRecord(
  medspaId: string,
  appointmentId: string,
  input: AmendmentInput,
  options: ChangeOptions,
): Promise<PublicTreatmentRecord> {
  return writeRecord(medspaId, appointmentId, input.record, options, (loaded, products) => {
    const { current } = loaded;
    if (!current) throw new AppError('APPOINTMENT_NOT_FOUND', 'This appointment has no treatment record');
    if (current.status !== 'signed' || current.revision === null)
      throw new AppError('CONFLICT', 'This treatment record is a draft: change it with PUT, then sign it');
    checkIfMatch(current, options.ifMatch);
    return {
      record: {
        ...recordFrom(input.record, products(), loaded, options),
        status: 'signed',
        signed_at: options.now.toISOString(),
        signed_by: options.by,
        revision: current.revision + 1,
        amendment_reason: input.reason,
      },
      revision: true,
      onLostRecord: 'conflict',
    };
  });
}

/** Signs the draft as revision 1 (stock untouched: the draft already took it). */
export async function signTreatmentRecord(
  medspaId: string,
  appointmentId: string,
  options: ChangeOptions,
): Promise<PublicTreatmentRecord> {
  const { current } = await loadRecord(medspaId, appointmentId);
  if (!current) throw new AppError('APPOINTMENT_NOT_FOUND', 'This appointment has no treatment record');
  if (current.status === 'signed') throw locked();
  checkIfMatch(current, options.ifMatch);
  const at = options.now.toISOString();
  const record: TreatmentRecord = {
    ...current,
    status: 'signed',
    signed_at: at,
    signed_by: options.by,
    revision: 1,
    version: current.version + 1,
    updated_at: at,
  };
  const result = await commitRecordChange(
    { record, expectedVersion: current.version, revision: true, stock: [], exposures: [] },
    options.writes,
  );
  if (!result.ok) throw new AppError('VERSION_CONFLICT', 'The treatment record changed meanwhile; read it again');
  return withoutPractice(record)!;
}

/** The current record, draft or signed (404 APPOINTMENT_NOT_FOUND when there is none). */
export async function readTreatmentRecord(medspaId: string, appointmentId: string): Promise<PublicTreatmentRecord> {
  const { current } = await loadRecord(medspaId, appointmentId);
  if (!current) throw new AppError('APPOINTMENT_NOT_FOUND', 'This appointment has no treatment record');
  return withoutPractice(current)!;
}

/** Every signed revision, oldest first (drafts replaced before signing are not revisions), a page at a time. */
export async function listTreatmentRecordVersions(
  medspaId: string,
  appointmentId: string,
  query: { limit: number; cursor?: string },
): Promise<ListResult<PublicTreatmentRecord>> {
  const page = pageRequest(medspaId, 'treatment-record-versions', { ...query, appointment_id: appointmentId });
  const [{ current }, revisions] = await Promise.all([
    loadRecord(medspaId, appointmentId),
    listRevisions(medspaId, appointmentId, page),
  ]);
  if (!current) throw new AppError('APPOINTMENT_NOT_FOUND', 'This appointment has no treatment record');
  return toListResult({ ...revisions, items: revisions.items.map((revision) => withoutPractice(revision)!) });
}
