import { getEntity } from '../db/batch';
import { serviceCodec } from '../db/codecs';
import type { RequestWrites } from '../db/request-writes';
import { AppError } from '../errors';
import type { FormSubmission } from '../schemas/forms';
import { formsStillNeeded, submitForm, type FormNeeded, type SubmitFormInput } from './form-submissions';
import { enabledSettingsOf } from './online-booking';
import { readPractice } from './practice';
import { openedAppointment } from './public-booking';

/**
 * A booking's forms by its manage link (API reference, section 14 "Public"): the same token, the
 * same 404 for a token that does not open the booking, and 403 while online booking is off.
 */

/** GET /v1/public/bookings/{id}/forms: the current versions of the required templates not met at the start. */
export async function listBookingForms(
  medspaId: string,
  appointmentId: string,
  token: string | undefined,
  now: Date,
): Promise<FormNeeded[]> {
  const appointment = await openedAppointment(medspaId, appointmentId, token, now);
  const [practice, needed] = await Promise.all([readPractice(medspaId), formsStillNeeded(medspaId, appointment)]);
  enabledSettingsOf(practice);
  return needed;
}

/**
 * POST /v1/public/bookings/{id}/forms: a submission for the booking's client and appointment,
 * `source: public`. Only a template the booking's service requires (met or not): any other is
 * 404 FORM_TEMPLATE_NOT_FOUND, so a manage link cannot file arbitrary forms on a client.
 */
export async function submitBookingForm(
  medspaId: string,
  appointmentId: string,
  token: string | undefined,
  input: Omit<SubmitFormInput, 'appointment_id'>,
  context: { now: Date; ip?: string; userAgent?: string; writes?: RequestWrites },
): Promise<FormSubmission> {
  const appointment = await openedAppointment(medspaId, appointmentId, token, context.now);
  const [practice, service] = await Promise.all([
    readPractice(medspaId),
    getEntity(serviceCodec, medspaId, appointment.service_id),
  ]);
  enabledSettingsOf(practice);
  if (!service?.required_form_template_ids.includes(input.template_id)) throw new AppError('FORM_TEMPLATE_NOT_FOUND');
  return submitForm(
    medspaId,
    appointment.client_id,
    { ...input, appointment_id: appointment.id },
    context.now,
    { source: 'public', ip: context.ip, userAgent: context.userAgent },
    context.writes,
  );
}
