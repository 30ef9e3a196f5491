import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ACTIVE_STATUSES } from '../domain/status';
import { minuteStart } from '../domain/reminders';
import type { AppointmentRecord, ReminderRecord } from '../domain/records';
import { appointmentCodec, reminderCodec, reminderDueCodec, reminderSentCodec, reminderSweepCodec } from './codecs';
import { ddb, tableName } from './client';
import { itemId, readItems } from './key-reads';
import { appointmentKey, reminderDueKey, reminderSweepCheckpointKey, remindersDuePk } from './keys';
import { sweepCheckpoint } from './minute-partitions';
import { queryAll } from './query';
import { transact, type NamedAction } from './transact';

/**
 * Scheduled reminders (keys.ts `reminderDueKey`, `reminderSentKey`, `reminderSweepCheckpointKey`):
 * "due" items by minute, the sweeper's checkpoint, and the reminder write itself.
 */

export interface ReminderDue {
  minute: string;
  medspaId: string;
  appointmentId: string;
  /** The appointment time this reminder was armed for. */
  scheduledAt: string;
}

/** Due items nobody swept (a sweeper down for a week) expire on their own. */
const DUE_ITEM_TTL_SECONDS = 7 * 24 * 3600;

/** Arms a reminder. The key is the whole identity, so arming the same time again rewrites the same item. */
export async function putReminderDue(due: ReminderDue): Promise<void> {
  await ddb().send(
    new PutCommand({
      TableName: tableName(),
      Item: reminderDueCodec.toItem({
        medspa_id: due.medspaId,
        appointment_id: due.appointmentId,
        scheduled_at: due.scheduledAt,
        due_minute: due.minute,
        expires_at: Math.floor(minuteStart(due.minute) / 1000) + DUE_ITEM_TTL_SECONDS,
      }),
    }),
  );
}

/** Every reminder due in one minute, all practices: one Query of that minute's partition. */
export async function remindersDueIn(minute: string): Promise<ReminderDue[]> {
  const dues = await queryAll(reminderDueCodec, { partition: remindersDuePk(minute), consistent: true });
  return dues.map((due) => ({
    minute,
    medspaId: due.medspa_id,
    appointmentId: due.appointment_id,
    scheduledAt: due.scheduled_at,
  }));
}

export async function deleteReminderDue(due: ReminderDue): Promise<void> {
  await ddb().send(
    new DeleteCommand({
      TableName: tableName(),
      Key: reminderDueKey(due.minute, due.medspaId, due.appointmentId, due.scheduledAt),
    }),
  );
}

/** The appointments of these due items, by `medspaId|appointmentId`: one BatchGetItem per 100. */
export async function appointmentsOf(dues: ReminderDue[]): Promise<Map<string, AppointmentRecord>> {
  const found = await readItems(dues.map((due) => appointmentKey(due.medspaId, due.appointmentId)));
  const appointments = new Map<string, AppointmentRecord>();
  for (const due of dues) {
    const item = found.get(itemId(appointmentKey(due.medspaId, due.appointmentId)));
    if (item) appointments.set(`${due.medspaId}|${due.appointmentId}`, appointmentCodec.fromItem(item)!);
  }
  return appointments;
}

const reminderSweep = /* @__PURE__ */ sweepCheckpoint(reminderSweepCodec, reminderSweepCheckpointKey);
export const readSweepCheckpoint = reminderSweep.read;
export const advanceSweepCheckpoint = reminderSweep.advance;

export type ScheduledReminderResult =
  | 'written'
  /** Already written for this appointment time, or the appointment moved, ended or went away meanwhile. */
  | 'refused';

/**
 * The scheduled reminder in ONE transaction: the reminder item (which the stream turns into
 * `appointment.reminder`), the sent marker for this appointment time (attribute_not_exists: a
 * second sweep, concurrent or later, cannot write it again), and a check that the appointment is
 * still active at that time (closing the race with a cancel or move after it was read).
 */
export async function commitScheduledReminder(reminder: ReminderRecord): Promise<ScheduledReminderResult> {
  const { medspa_id: medspaId, appointment } = reminder;
  const statuses = Object.fromEntries(ACTIVE_STATUSES.map((status, index) => [`:s${index}`, status]));
  const outcome = await transact<NamedAction<'reminder' | 'sent' | 'still-due'>>([
    {
      name: 'reminder',
      action: {
        Put: {
          TableName: tableName(),
          Item: reminderCodec.toItem(reminder),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    {
      name: 'sent',
      action: {
        Put: {
          TableName: tableName(),
          Item: reminderSentCodec.toItem({
            medspa_id: medspaId,
            appointment_id: appointment.id,
            scheduled_at: appointment.scheduled_at,
            event_id: reminder.event_id,
            sent_at: reminder.requested_at,
          }),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    {
      name: 'still-due',
      action: {
        ConditionCheck: {
          TableName: tableName(),
          Key: appointmentKey(medspaId, appointment.id),
          ConditionExpression: `attribute_exists(pk) AND scheduled_at = :at AND #status IN (${Object.keys(statuses).join(', ')})`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':at': appointment.scheduled_at, ...statuses },
        },
      },
    },
  ]);
  return outcome.ok ? 'written' : 'refused';
}
