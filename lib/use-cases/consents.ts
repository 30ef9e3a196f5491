import type { RequestWrites } from '../db/request-writes';
import { randomUUID } from 'node:crypto';
import { latestConsentsOf, listConsentsOf, putConsent } from '../db/consents';
import { pageRequest } from '../crypto/cursor';
import { AppError } from '../errors';
import type { Consent, CreateConsentInput } from '../schemas/clients';
import { checkClientsAppointment, ofLiveClient, readNamedAppointment } from './clients';
import { failureOf } from './failures';
import { toListResult, type ListResult } from './list-result';

/** Consent forms a client signed (API reference, other resources: `/v1/clients/{id}/consents`). */

/** Clock skew allowed on `signed_at`; later is a consent signed in the future. */
const SIGNED_AT_TOLERANCE_MS = 5 * 60_000;
/** The appointment detail shows this many of the latest consents (one bounded Query). */
export const DETAIL_CONSENTS = 100;

export async function createConsent(
  medspaId: string,
  clientId: string,
  input: CreateConsentInput,
  now: Date,
  writes?: RequestWrites,
): Promise<Consent> {
  const signedAt = new Date(input.signed_at);
  if (signedAt.getTime() > now.getTime() + SIGNED_AT_TOLERANCE_MS) {
    throw new AppError('VALIDATION_ERROR', 'signed_at is in the future', {
      details: [{ path: 'signed_at', message: 'must not be in the future' }],
    });
  }
  const appointmentId = input.appointment_id ?? null;
  const appointment = await ofLiveClient(medspaId, clientId, () => readNamedAppointment(medspaId, appointmentId));
  checkClientsAppointment(clientId, appointmentId, appointment);
  const at = now.toISOString();
  const consent: Consent = {
    id: randomUUID(),
    medspa_id: medspaId,
    client_id: clientId,
    form_name: input.form_name,
    signed_at: signedAt.toISOString(),
    appointment_id: appointmentId,
    form_submission_id: null,
    version: 1,
    created_at: at,
    updated_at: at,
  };
  // A client deleted since the check above fails the write (its deletion committed first).
  const result = await putConsent(consent, writes);
  if (!result.ok) throw failureOf({ client: 'CLIENT_NOT_FOUND' }, result);
  return consent;
}

/** A page of the client's consents, newest signed first. */
export async function listConsents(
  medspaId: string,
  clientId: string,
  query: { limit: number; cursor?: string },
): Promise<ListResult<Consent>> {
  const page = pageRequest(medspaId, 'consents', { ...query, client_id: clientId });
  return toListResult(await ofLiveClient(medspaId, clientId, () => listConsentsOf(medspaId, clientId, page)));
}

/** Signed consent forms of a client for the appointment detail: the latest DETAIL_CONSENTS, newest first. */
export function signedConsentsOf(medspaId: string, clientId: string): Promise<Consent[]> {
  return latestConsentsOf(medspaId, clientId, DETAIL_CONSENTS);
}
