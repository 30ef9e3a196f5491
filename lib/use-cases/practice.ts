import { randomUUID } from 'node:crypto';
import { forgetAccess } from '../auth/access';
import { getPractice, putNewPractice, updatePractice } from '../db/practices';
import { AppError } from '../errors';
import type { Practice } from '../schemas/practice';
import { createCredential } from './auth';
import { failureOf } from './failures';

export async function readPractice(medspaId: string): Promise<Practice> {
  const practice = await getPractice(medspaId);
  // A valid token whose practice is gone: treat like any unknown caller.
  if (!practice) throw new AppError('UNAUTHORIZED');
  return practice;
}

export async function changePractice(
  medspaId: string,
  changes: Partial<Pick<Practice, 'name' | 'time_zone' | 'currency' | 'reminder_lead_minutes' | 'api_access'>>,
  options: { ifMatch?: number; now: Date },
): Promise<Practice> {
  const result = await updatePractice(medspaId, changes, { now: options.now.toISOString(), expectedVersion: options.ifMatch });
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
export async function createPracticeWithAdmin(input: NewPractice & { clientId?: string; clientSecret?: string }, now: Date) {
  const at = now.toISOString();
  const practice = await putNewPractice({
    id: input.id ?? randomUUID(),
    name: input.name,
    time_zone: input.time_zone ?? 'America/New_York',
    currency: input.currency ?? 'USD',
    reminder_lead_minutes: 1440,
    api_access: input.api_access ?? 'enabled',
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
