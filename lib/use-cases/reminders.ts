import { getPractice } from '../db/practices';
import { readMinutePartitions } from '../db/minute-partitions';
import {
  advanceSweepCheckpoint,
  appointmentsOf,
  commitScheduledReminder,
  deleteReminderDue,
  putReminderDue,
  readSweepCheckpoint,
  remindersDueIn,
  type ReminderDue,
} from '../db/reminders';
import { DEFAULT_REMINDER_LEAD_MINUTES, reminderDueMinute, reminderStillDue, sweepWindow } from '../domain/reminders';
import { eventIdFrom } from '../events/ids';
import type { Appointment } from '../schemas/appointments';
import type { ReminderArming } from '../events/from-record';

/**
 * Scheduled reminders (API reference, webhooks and events): `appointment.reminder` once,
 * `reminder_lead_minutes` before each active appointment, armed in minute partitions and swept
 * every minute (docs/decisions/0003-reminders-in-minute-partitions.md).
 */

/** Arms the reminder of an appointment time (idempotent: the same time arms the same item). Null when none is due (started already). */
export async function armReminder(arming: ReminderArming, now: Date): Promise<ReminderDue | null> {
  const practice = await getPractice(arming.medspaId);
  if (!practice) return null;
  const minute = reminderDueMinute(
    arming.scheduledAt,
    practice.reminder_lead_minutes ?? DEFAULT_REMINDER_LEAD_MINUTES,
    now,
  );
  if (!minute) return null;
  const due = {
    minute,
    medspaId: arming.medspaId,
    appointmentId: arming.appointmentId,
    scheduledAt: arming.scheduledAt,
  };
  await putReminderDue(due);
  return due;
}

export interface SweepOptions {
  /** Minutes before the checkpoint read again, for clock skew between the consumer and the sweeper. */
  lookbackMinutes?: number;
  /** With no checkpoint yet, how far back the first sweep starts. */
  firstRunMinutes?: number;
  /** At most this many minute partitions per run; a sweep that fell behind catches up over several runs. */
  maxMinutes?: number;
}

export interface SweepResult {
  /** The minutes swept, inclusive (null: nothing to sweep, e.g. `now` is before the checkpoint). */
  from: string | null;
  through: string | null;
  /** Reminders written by this run. */
  sent: number;
  /** Due items dropped: already sent, or the appointment moved, ended or is no longer active. */
  lapsed: number;
}

const PARALLEL_WRITES = 25;

/** The one id of the scheduled reminder of an appointment time, whoever writes it. */
export const scheduledReminderEventId = (medspaId: string, appointmentId: string, scheduledAt: string) =>
  eventIdFrom('appointment.reminder', medspaId, appointmentId, scheduledAt);

const dueIn = (from: string, through: string): Promise<ReminderDue[]> =>
  readMinutePartitions(from, through, remindersDueIn);

/** Writes the reminder if still due; true when this call wrote it. Lost races retry, bounded. */
async function fire(due: ReminderDue, appointment: Appointment, now: Date): Promise<boolean> {
  const reminder = {
    medspa_id: due.medspaId,
    event_id: scheduledReminderEventId(due.medspaId, due.appointmentId, due.scheduledAt),
    appointment_id: due.appointmentId,
    requested_at: now.toISOString(),
    requested_by: 'reminder-schedule',
    appointment,
  };
  // Conflicts are retried inside transact; a refusal means sent already, or no longer due.
  return (await commitScheduledReminder(reminder)) === 'written';
}

/**
 * One sweep at `now` (the clock is the caller's): every reminder due from the checkpoint to now's
 * minute is written or dropped, the due items are deleted, then the checkpoint moves. A failure
 * leaves the checkpoint where it was, so the next run does the window again (harmless: markers).
 */
export async function sweepReminders(now: Date, options: SweepOptions = {}): Promise<SweepResult> {
  const window = sweepWindow(await readSweepCheckpoint(), now, {
    lookbackMinutes: options.lookbackMinutes ?? 2,
    firstRunMinutes: options.firstRunMinutes ?? 60,
    maxMinutes: options.maxMinutes ?? 120,
  });
  if (!window) return { from: null, through: null, sent: 0, lapsed: 0 };
  const dues = await dueIn(window.from, window.through);
  let sent = 0;
  let lapsed = 0;
  // Bounded work in flight: one BatchGet per 100 due items, then their writes 25 at a time.
  for (let i = 0; i < dues.length; i += 100) {
    const chunk = dues.slice(i, i + 100);
    const appointments = await appointmentsOf(chunk);
    for (let j = 0; j < chunk.length; j += PARALLEL_WRITES) {
      await Promise.all(
        chunk.slice(j, j + PARALLEL_WRITES).map(async (due) => {
          const appointment = appointments.get(`${due.medspaId}|${due.appointmentId}`) ?? null;
          const wrote =
            appointment !== null &&
            reminderStillDue(due.scheduledAt, appointment, now) &&
            (await fire(due, appointment, now));
          if (wrote) sent += 1;
          else lapsed += 1;
          await deleteReminderDue(due);
        }),
      );
    }
  }
  await advanceSweepCheckpoint(window.through, now.toISOString());
  return { ...window, sent, lapsed };
}
