import type { Practice, Problem } from './api';
import { FIELD_LABELS, fieldOf } from './form';
import { period } from './format';

/** A path the API names in VALIDATION_ERROR details, in words: the form's label, else the path. */
const OTHER_PATHS = new Map([
  ['scheduled_at', 'Time'],
  ['reason', 'Reason'],
]);
const fieldName = (path: string) => {
  const field = fieldOf(path);
  return field ? FIELD_LABELS[field] : (OTHER_PATHS.get(path) ?? path);
};

/** A clear sentence for every error the public API can answer, for the person booking. */
export function describeProblem(problem: Problem, practice?: Practice | null): string {
  const settings = practice?.online_booking;
  switch (problem.code) {
    case 'NETWORK':
      return 'We could not reach the booking service. Check your connection and try again.';
    case 'RATE_LIMITED':
      return `Too many requests in a short time. Please wait ${problem.retryAfter ? `${problem.retryAfter} seconds` : 'a moment'} and try again.`;
    case 'UNAUTHORIZED':
      return 'This booking page is not set up correctly: its key is unknown or was withdrawn. Please contact the practice to book.';
    case 'ORIGIN_NOT_ALLOWED':
      return "This website may not take bookings for the practice. Please book on the practice's own website.";
    // A practice not yet let onto the API (waitlisted) cannot take bookings online either.
    case 'API_ACCESS_NOT_ENABLED':
    case 'ONLINE_BOOKING_DISABLED':
      return 'Online booking is not available at the moment. Please contact the practice to book.';
    case 'SERVICE_NOT_FOUND':
      return 'This service can no longer be booked online. Please choose another one.';
    case 'PROVIDER_NOT_FOUND':
      return 'This provider can no longer be booked online. Please choose another time.';
    case 'APPOINTMENT_NOT_FOUND':
      return 'We could not find this booking. The link may be incomplete, or the appointment is over. Please contact the practice if you need help.';
    case 'FORM_TEMPLATE_NOT_FOUND':
      return 'This form is no longer needed for your booking. Reload the page to see the forms still to fill.';
    case 'SLOT_UNAVAILABLE':
      return 'Sorry, that time was just taken. The times shown are up to date: please choose another one.';
    // The page holds a time while the form is open (10 minutes), then books it with the hold.
    case 'HOLD_EXPIRED':
      return 'The 10 minutes we held your time for are over. Choose a time again to book: the times shown are up to date.';
    case 'HOLD_NOT_FOUND':
    case 'HOLD_NOT_ACTIVE':
      return 'Your time is no longer held for you. Choose a time again to book: the times shown are up to date.';
    case 'HOLD_LIMIT_REACHED':
      return 'You are already holding as many times as you may (3): finish or close your other booking pages, or wait 10 minutes, then choose a time again.';
    case 'BOOKING_LIMIT_REACHED':
      return 'You already have as many upcoming online bookings as the practice allows. Cancel one with the link in its confirmation, or contact the practice.';
    case 'DEPOSIT_REQUIRED':
      return 'This service needs a deposit, which this page cannot take. Please contact the practice to book it.';
    case 'CANCEL_WINDOW_CLOSED':
      return `It is too close to the appointment to change it online${settings ? ` (changes close ${period(settings.cancel_cutoff_minutes)} before)` : ''}. Please contact the practice.`;
    case 'INVALID_STATUS_TRANSITION':
      return 'This booking can no longer be changed: it may already be cancelled, or have started. Reload the page to see it as it is now.';
    case 'IDEMPOTENCY_KEY_IN_USE':
      return 'Your request is still being processed. Please wait a moment and try again.';
    case 'VALIDATION_ERROR': {
      const timing = problem.details.some((detail) => detail.path === 'scheduled_at');
      if (timing && settings) {
        return `That time can no longer be booked online: bookings open ${period(settings.min_notice_minutes)} ahead and up to ${period(settings.horizon_days * 1440)} ahead. The times shown are up to date.`;
      }
      const lines = problem.details.map((detail) => `${fieldName(detail.path)}: ${detail.message}`);
      return lines.length ? `Please check: ${lines.join('; ')}.` : 'Please check the details you entered.';
    }
    default:
      return 'Something went wrong on our side. Please try again in a moment.';
  }
}
