import { randomUUID } from 'node:crypto';
import { forgetAccess } from '../auth/access';
import { getPractice, putNewPractice, updatePractice } from '../db/practices';
import type { UpdateOutcome } from '../db/update';
import type { PracticeRecord } from '../domain/records';
import { ONLINE_BOOKING_DEFAULTS, type OnlineBookingSettings } from '../domain/online-booking';
import { DEFAULT_WAITLIST_OFFER_MINUTES } from '../domain/waitlist';
import { AppError } from '../errors';
import { retry } from '../retry';
import type { Practice } from '../schemas/practice';
import { createCredential } from './auth';
import { failureOf } from './failures';

export async function readPractice(medspaId: string): Promise<Practice> {
  const practice = await getPractice(medspaId);
  // A valid token whose practice is gone: treat like any unknown caller.
  if (!practice) throw new AppError('UNAUTHORIZED');
  return practice;
}

export type PracticeChanges = Partial<
  Pick<
    Practice,
    | 'name'
    | 'time_zone'
    | 'currency'
    | 'reminder_lead_minutes'
    | 'waitlist_offer_minutes'
    | 'api_access'
    | 'allowed_origins'
    | 'cancellation_policy'
  >
> & {
  online_booking?: Partial<OnlineBookingSettings>;
};

/**
 * A PATCH of the settings. `online_booking` merges the given fields into the stored ones: read,
 * merged, written on the version read (without If-Match a concurrent change is merged again).
 */
export async function changePractice(
  medspaId: string,
  changes: PracticeChanges,
  options: { ifMatch?: number; now: Date },
): Promise<Practice> {
  const { online_booking: bookingChanges, ...plain } = changes;
  const result = await retry<UpdateOutcome<PracticeRecord>>(
    async () => {
      let expectedVersion = options.ifMatch;
      let online_booking: OnlineBookingSettings | undefined;
      if (bookingChanges) {
        const current = await getPractice(medspaId);
        if (!current) throw new AppError('NOT_FOUND');
        expectedVersion ??= current.version;
        online_booking = { ...current.online_booking, ...bookingChanges };
      }
      const outcome = await updatePractice(
        medspaId,
        { ...plain, online_booking },
        { now: options.now.toISOString(), expectedVersion },
      );
      const raced = !outcome.ok && outcome.failed === 'version' && bookingChanges && options.ifMatch === undefined;
      return raced ? { retry: 'now' as const } : { done: outcome };
    },
    {
      attempts: 5,
      exhausted: () => {
        throw new AppError('VERSION_CONFLICT');
      },
    },
  );
  if (!result.ok) throw failureOf({ absent: 'NOT_FOUND', version: 'VERSION_CONFLICT' }, result);
  forgetAccess(medspaId);
  return result.item;
}

export interface NewPractice {
  name: string;
  time_zone?: string;
  currency?: string;
  api_access?: Practice['api_access'];
  id?: string;
}

/** A practice and its first admin credential (the admin command, the demo seed, tests). */
export async function createPracticeWithAdmin(
  input: NewPractice & { clientId?: string; clientSecret?: string },
  now: Date,
) {
  const at = now.toISOString();
  const practice = await putNewPractice({
    id: input.id ?? randomUUID(),
    name: input.name,
    time_zone: input.time_zone ?? 'America/New_York',
    currency: input.currency ?? 'USD',
    reminder_lead_minutes: 1440,
    waitlist_offer_minutes: DEFAULT_WAITLIST_OFFER_MINUTES,
    api_access: input.api_access ?? 'enabled',
    online_booking: { ...ONLINE_BOOKING_DEFAULTS },
    allowed_origins: [],
    cancellation_policy: null,
    version: 1,
    created_at: at,
    updated_at: at,
  });
  const credential = await createCredential(
    practice.id,
    { name: 'Admin', role: 'admin', clientId: input.clientId, clientSecret: input.clientSecret },
    now,
  );
  return { practice, credential };
}
