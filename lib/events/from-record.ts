import { decodeStreamRecord, type StoredChange, type StreamRecord } from '../db/stream';
import { isRecall } from '../domain/recall';
import type { LotRecord } from '../domain/records';
import { isActive } from '../domain/status';
import type { Appointment } from '../schemas/appointments';
import { EVENT_CATALOG, type EventSource } from '../domain/events';
import { eventIdFrom } from './ids';
import { EVENT_SOURCES, MAPPINGS, objectOf, type Draft } from './mappings';
import type { ContractEvent } from './types';

/**
 * The table stream is the outbox (docs/decisions/0002-table-stream-is-the-outbox.md): a committed
 * change becomes contract events by the event table (lib/domain/events.ts) and its mappings
 * (./mappings.ts). Pure: no I/O, no clock; ids derive from the stream record's eventID and the
 * event type, so a replayed record yields the same events with the same ids.
 */

export interface EventContext {
  /** When the record carries no change time at all (never for records this API writes). */
  now: Date;
}

const isoOrNull = (value: unknown): string | null => {
  if (typeof value !== 'string' || !value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
};

/** The mapping of the change's kind (one lookup, typed by kind). */
const draftsOf = <K extends EventSource>(change: StoredChange<K>): Draft[] =>
  (MAPPINGS[change.kind] as (change: StoredChange<K>) => Draft[])(change);

/** A stream record's contract events, in the order they happened (zero, one, or two for a completion or cancel). */
export function eventsFromRecord(record: StreamRecord, context: EventContext): ContractEvent[] {
  const change = decodeStreamRecord(record, EVENT_SOURCES);
  if (!change) return [];
  const medspaId = (change.after ?? change.before)!.medspa_id;
  return draftsOf(change).map((draft) => {
    // The row says whether `data` carries `previous`; a mapping that disagrees is a bug, not data.
    if (EVENT_CATALOG[draft.type].previous !== (draft.previous !== undefined))
      throw new Error(`${draft.type}: previous does not match the event table`);
    return {
      id: draft.id ?? eventIdFrom(change.eventId, draft.type),
      type: draft.type,
      created_at: isoOrNull(draft.at) ?? change.approximateAt ?? context.now.toISOString(),
      medspa_id: medspaId,
      data: {
        ...(draft.previous ? { object: draft.object, previous: draft.previous } : { object: draft.object }),
        ...draft.extra,
      },
    };
  });
}

/** An appointment time a reminder must be armed for (API reference, webhooks and events). */
export interface ReminderArming {
  medspaId: string;
  appointmentId: string;
  scheduledAt: string;
  endAt: string;
}

/**
 * The appointment time to arm a reminder for: a new active appointment, or an active one whose
 * `scheduled_at` moved (a reschedule re-arms; the old time's reminder is never sent because the
 * sweeper checks the time again). Null for every other record.
 */
export function reminderToArm(record: StreamRecord): ReminderArming | null {
  const change = decodeStreamRecord(record, ['APPOINTMENT']);
  if (!change || change.change === 'REMOVE' || !change.after) return null;
  const after = objectOf('appointment.updated', change.after, change) as Appointment;
  if (!isActive(after.status)) return null;
  if (change.change === 'MODIFY' && change.before && change.before.scheduled_at === after.scheduled_at) return null;
  return { medspaId: after.medspa_id, appointmentId: after.id, scheduledAt: after.scheduled_at, endAt: after.end_at };
}

/**
 * The lot a stream record recalls (its change from active to recalled), whose exposed clients the
 * stream consumer then gives their notices (docs/decisions/0027); null for every other record.
 */
export function recallToFanOut(record: StreamRecord): LotRecord | null {
  const change = decodeStreamRecord(record, ['LOT']);
  return change?.change === 'MODIFY' && isRecall(change.before, change.after) ? change.after : null;
}
