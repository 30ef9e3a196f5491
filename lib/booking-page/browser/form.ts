import { timeRefused, type BookingRequest, type HeldBookingRequest, type Problem } from './api';

/** The booking form's rules, apart from the DOM: its fields, their checks, the request, and what a refusal changes. */

/** The client's text fields (not `consents`, which the page does not ask for) and the note. */
export type FieldName = Exclude<keyof BookingRequest['client'], 'consents'> | 'notes';
export type Values = Record<FieldName, string>;

/** The fields in the form's order, with their labels (the contract's accessible names). */
export const FIELD_LABELS: Record<FieldName, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  email: 'Email',
  phone: 'Phone',
  notes: 'Notes',
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** As the API's client schema takes them (lib/schemas/resources.ts). */
const PHONE = /^\+?[0-9 ().\-x]{3,40}$/;

/** What is wrong with each checked field before anything is sent (null: nothing); values are trimmed. */
export function checkDetails(values: Values): [FieldName, string | null][] {
  const { first_name, last_name, email, phone } = values;
  return [
    ['first_name', first_name ? null : 'Enter your first name.'],
    ['last_name', last_name ? null : 'Enter your last name.'],
    [
      'email',
      !email ? 'Enter your email address.' : EMAIL.test(email) ? null : 'Enter an email address like name@example.com.',
    ],
    ['phone', !phone || PHONE.test(phone) ? null : 'Enter a phone number such as +1 555 010 0100, or leave it empty.'],
  ];
}

/** POST /v1/public/bookings's body for the held time (the hold names service, time and provider), empty optional fields left out. */
export const bookingRequest = (holdId: string, values: Values): HeldBookingRequest => ({
  hold_id: holdId,
  client: {
    first_name: values.first_name,
    last_name: values.last_name,
    email: values.email,
    ...(values.phone ? { phone: values.phone } : {}),
  },
  ...(values.notes ? { notes: values.notes } : {}),
});

/** The field a VALIDATION_ERROR detail names (`client.email`, `notes`), if it is one of the form's. */
export function fieldOf(path: string): FieldName | null {
  const name = path === 'notes' ? path : path.startsWith('client.') ? path.slice('client.'.length) : '';
  // Own keys only: `client.toString` names no field.
  return (Object.keys(FIELD_LABELS) as FieldName[]).find((field) => field === name) ?? null;
}

/** What a refused booking changes on the page (describeProblem says why). */
export type BookingFailure =
  /** The time is gone (or its provider): fresh times, the reason above them. */
  | { kind: 'times' }
  /** The hold is gone (expired, released, unknown): the client picks a time again, from fresh times. */
  | { kind: 'hold' }
  /** Fields the API refused, each with its reason. */
  | { kind: 'fields'; fields: [FieldName, string][] }
  /** The service can no longer be booked: its button is disabled. */
  | { kind: 'service' }
  /** Said; `again` when pressing Book again is safe and may work (same Idempotency-Key). */
  | { kind: 'notice'; again: boolean };

export function bookingFailure(problem: Problem): BookingFailure {
  if (timeRefused(problem) || problem.code === 'PROVIDER_NOT_FOUND') return { kind: 'times' };
  if (problem.code.startsWith('HOLD_') && problem.code !== 'HOLD_LIMIT_REACHED') return { kind: 'hold' };
  const fields = problem.details.flatMap((detail): [FieldName, string][] => {
    const name = fieldOf(detail.path);
    return name ? [[name, detail.message]] : [];
  });
  if (problem.code === 'VALIDATION_ERROR' && fields.length) return { kind: 'fields', fields };
  if (problem.code === 'SERVICE_NOT_FOUND') return { kind: 'service' };
  return {
    kind: 'notice',
    again: problem.code === 'NETWORK' || problem.status >= 500 || problem.code === 'IDEMPOTENCY_KEY_IN_USE',
  };
}
