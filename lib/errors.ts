import type { UnavailableReason } from './domain/availability';

/** Every error the API can answer with: the contract's code and its HTTP status, in one place. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  UNAUTHORIZED: 401,
  INVALID_CLIENT: 401,
  FORBIDDEN: 403,
  API_ACCESS_NOT_ENABLED: 403,
  ORIGIN_NOT_ALLOWED: 403,
  ONLINE_BOOKING_DISABLED: 403,
  NOT_FOUND: 404,
  CLIENT_NOT_FOUND: 404,
  SERVICE_NOT_FOUND: 404,
  PROVIDER_NOT_FOUND: 404,
  ROOM_NOT_FOUND: 404,
  EQUIPMENT_NOT_FOUND: 404,
  APPOINTMENT_NOT_FOUND: 404,
  PRODUCT_NOT_FOUND: 404,
  PLAN_NOT_FOUND: 404,
  CLIENT_PLAN_NOT_FOUND: 404,
  PAYMENT_NOT_FOUND: 404,
  WEBHOOK_NOT_FOUND: 404,
  CREDENTIAL_NOT_FOUND: 404,
  PUBLISHABLE_KEY_NOT_FOUND: 404,
  HOLD_NOT_FOUND: 404,
  SERIES_NOT_FOUND: 404,
  LOT_NOT_FOUND: 404,
  PHOTO_NOT_FOUND: 404,
  EVENT_NOT_FOUND: 404,
  FORM_TEMPLATE_NOT_FOUND: 404,
  FORM_SUBMISSION_NOT_FOUND: 404,
  WAITLIST_ENTRY_NOT_FOUND: 404,
  PROVIDER_UNAVAILABLE: 409,
  ROOM_UNAVAILABLE: 409,
  EQUIPMENT_UNAVAILABLE: 409,
  INVALID_STATUS_TRANSITION: 409,
  INSUFFICIENT_STOCK: 409,
  ENTITLEMENT_EXHAUSTED: 409,
  PLAN_NOT_ACTIVE: 409,
  MEMBERSHIP_MANAGED_BY_PLAN: 409,
  VERSION_CONFLICT: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  CONFLICT: 409,
  SLOT_UNAVAILABLE: 409,
  BOOKING_LIMIT_REACHED: 409,
  CANCEL_WINDOW_CLOSED: 409,
  HOLD_EXPIRED: 409,
  HOLD_NOT_ACTIVE: 409,
  HOLD_LIMIT_REACHED: 409,
  SERIES_CONFLICT: 409,
  LOT_EXISTS: 409,
  LOT_EXPIRED: 409,
  LOT_RECALLED: 409,
  RECORD_LOCKED: 409,
  OFFER_EXPIRED: 409,
  NO_ACTIVE_OFFER: 409,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PROVIDER_NOT_CERTIFIED: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  DEPOSIT_REQUIRED: 422,
  PLAN_NOT_APPLICABLE: 422,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldProblem {
  path: string;
  message: string;
  /** Why a provider, room or equipment is unavailable (`*_UNAVAILABLE`). */
  reason?: UnavailableReason;
  /** The overlapping appointment, with `reason: 'overlap'`. */
  appointment_id?: string;
  /** The overlapping hold, with `reason: 'overlap'` (instead of `appointment_id`). */
  hold_id?: string;
  /** SERIES_CONFLICT: the occurrence that cannot be booked (0-based), its start and its refusal's code. */
  index?: number;
  scheduled_at?: string;
  code?: ErrorCode;
}

const DEFAULT_MESSAGES: Partial<Record<ErrorCode, string>> = {
  VALIDATION_ERROR: 'The request is not valid',
  INVALID_JSON: 'The body is not valid JSON',
  UNAUTHORIZED: 'A valid bearer token is required',
  INVALID_CLIENT: 'Unknown client_id or wrong client_secret',
  FORBIDDEN: 'Your role may not do this',
  API_ACCESS_NOT_ENABLED: 'API access is not enabled for this practice yet (early-access waitlist)',
  ORIGIN_NOT_ALLOWED: 'This origin may not call this API (see allowed_origins)',
  ONLINE_BOOKING_DISABLED: 'This practice does not take online bookings',
  NOT_FOUND: 'No such route',
  CLIENT_NOT_FOUND: 'Client does not exist',
  SERVICE_NOT_FOUND: 'Service does not exist',
  PROVIDER_NOT_FOUND: 'Provider does not exist',
  ROOM_NOT_FOUND: 'Room does not exist',
  EQUIPMENT_NOT_FOUND: 'Equipment does not exist',
  APPOINTMENT_NOT_FOUND: 'Appointment does not exist',
  PRODUCT_NOT_FOUND: 'Product does not exist',
  PLAN_NOT_FOUND: 'Plan does not exist',
  CLIENT_PLAN_NOT_FOUND: "Client's plan does not exist",
  PAYMENT_NOT_FOUND: 'Payment does not exist',
  WEBHOOK_NOT_FOUND: 'Webhook does not exist',
  CREDENTIAL_NOT_FOUND: 'Credential does not exist',
  PUBLISHABLE_KEY_NOT_FOUND: 'Publishable key does not exist',
  PROVIDER_UNAVAILABLE: 'Provider is not available at this time',
  ROOM_UNAVAILABLE: 'Room is already booked',
  EQUIPMENT_UNAVAILABLE: 'Equipment is already booked',
  INVALID_STATUS_TRANSITION: 'Cannot change status this way',
  INSUFFICIENT_STOCK: 'Not enough stock on hand',
  ENTITLEMENT_EXHAUSTED: 'No units of this service remain on the plan',
  PLAN_NOT_ACTIVE: "The client's plan is not active",
  MEMBERSHIP_MANAGED_BY_PLAN: "The client's membership follows their membership plan; change the plan instead",
  PLAN_NOT_APPLICABLE: "The plan has no units for this service, or is another client's",
  VERSION_CONFLICT: 'The resource has changed since the version in If-Match',
  SLOT_UNAVAILABLE: 'This time is no longer available',
  BOOKING_LIMIT_REACHED: 'This client already holds as many online bookings as the practice allows',
  CANCEL_WINDOW_CLOSED: 'Too close to the start to change this booking online',
  HOLD_NOT_FOUND: 'Hold does not exist',
  HOLD_EXPIRED: 'The hold has expired; its time is no longer held',
  HOLD_NOT_ACTIVE: 'The hold was already released or confirmed',
  HOLD_LIMIT_REACHED: 'This client address already holds as many times as the practice allows',
  SERIES_NOT_FOUND: 'Series does not exist',
  PHOTO_NOT_FOUND: 'Photo does not exist',
  EVENT_NOT_FOUND: 'Event does not exist (or is older than 30 days)',
  FORM_TEMPLATE_NOT_FOUND: 'Form template does not exist',
  FORM_SUBMISSION_NOT_FOUND: 'Form submission does not exist',
  SERIES_CONFLICT: 'Some occurrences of the series cannot be booked; nothing was booked',
  LOT_NOT_FOUND: 'Lot does not exist',
  LOT_EXISTS: 'This product already has a lot with this lot number',
  LOT_EXPIRED: 'The lot has expired',
  LOT_RECALLED: 'The lot has been recalled: no further sale or use',
  RECORD_LOCKED: 'The treatment record is signed: amend it instead',
  WAITLIST_ENTRY_NOT_FOUND: 'Waitlist entry does not exist',
  OFFER_EXPIRED: "The offer's hold has expired; its time is no longer held",
  NO_ACTIVE_OFFER: 'The entry holds no offer',
  PAYLOAD_TOO_LARGE: 'The body is larger than 256 KiB',
  URI_TOO_LONG: 'The request line is longer than the server accepts',
  HEADERS_TOO_LARGE: 'The request headers are larger than the server accepts',
  PROVIDER_NOT_CERTIFIED: 'Provider is not certified for this service',
  IDEMPOTENCY_KEY_REUSED: 'This Idempotency-Key was used with a different request',
  DEPOSIT_REQUIRED: 'This service asks a deposit: book it through a hold confirmed with the deposit',
  IDEMPOTENCY_KEY_IN_USE: 'A request with this Idempotency-Key is still being processed; retry shortly',
  RATE_LIMITED: 'Too many requests for this credential',
  INTERNAL_ERROR: 'Something went wrong on our side',
};

/** A failure the caller can act on; the HTTP layer maps it to status and envelope. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: FieldProblem[];
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message?: string,
    options?: { details?: FieldProblem[]; headers?: Record<string, string> },
  ) {
    super(message ?? DEFAULT_MESSAGES[code] ?? code);
    this.name = 'AppError';
    this.code = code;
    this.details = options?.details;
    this.headers = options?.headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;

/** 400 VALIDATION_ERROR for one field the schema could not judge (`summary`: the error's message). */
export const fieldError = (path: string, message: string, summary = message) =>
  new AppError('VALIDATION_ERROR', summary, { details: [{ path, message }] });
