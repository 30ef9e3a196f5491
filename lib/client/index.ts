import type { z } from 'zod';
import type { ErrorCode, FieldProblem } from '../errors';
import type { OperationName, Routes } from '../routes';
import { operations } from './operations';

type Input<S> = S extends z.ZodType ? z.input<S> : never;
type Output<S> = S extends z.ZodType ? z.output<S> : unknown;

/** What one operation takes, derived from its route's zod schemas. */
export type OperationInput<Op extends OperationName> = {
  [K in 'params' | 'query' | 'body' as Routes[Op] extends Record<K, z.ZodType> ? K : never]: Input<Routes[Op][K & keyof Routes[Op]]>;
} & { headers?: Record<string, string> };

export interface Envelope<T> {
  success: true;
  data: T;
  pagination?: { total: number; next_cursor: string | null };
}

export type OperationResult<Op extends OperationName> = Envelope<Output<Routes[Op] extends { response: infer R } ? R : never>>;

/** A failed call: the contract's error code, HTTP status, field problems and request id. */
export class MedspaApiError extends Error {
  constructor(
    readonly code: ErrorCode | string,
    message: string,
    readonly status: number,
    readonly requestId?: string,
    readonly details?: FieldProblem[],
  ) {
    super(message);
    this.name = 'MedspaApiError';
  }
}

export interface ClientOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  fetch?: typeof fetch;
}

export interface AppointmentFilters {
  startDate?: string;
  endDate?: string;
  providerId?: string;
  clientId?: string;
  serviceId?: string;
  status?: string[];
  limit?: number;
  cursor?: string;
}

export interface AvailabilitySearch {
  /** Optional only when both `providerIds` and `durationMinutes` are given. */
  serviceId?: string;
  /** Practice-local dates (YYYY-MM-DD), both inclusive. */
  from: string;
  to: string;
  /** Default: every active provider certified for the service. At most 20. */
  providerIds?: string[];
  durationMinutes?: number;
  /** Default 15. */
  intervalMinutes?: number;
  roomId?: string;
  equipmentId?: string;
  /** IANA zone grouping slots into dates for a viewer elsewhere; default the practice's. */
  timeZone?: string;
}

/** Every operation of the route table as a method: `client.api.createProvider({ body })`. */
export type OperationMethods = {
  [Op in OperationName]: (input?: OperationInput<Op>) => Promise<OperationResult<Op>>;
};

/**
 * Typed client of the API. Every operation of the route table is callable through `call`,
 * typed by its schemas; appointment methods carry the contract's operation names.
 */
export class MedspaClient {
  private token?: { value: string; expiresAt: number };
  private readonly fetcher: typeof fetch;

  /** Every operation by its contract name, typed by its schemas. */
  readonly api: OperationMethods;

  constructor(private readonly options: ClientOptions) {
    this.fetcher = options.fetch ?? fetch;
    this.api = Object.fromEntries(
      Object.keys(operations).map((operation) => [operation, (input?: object) => this.call(operation as OperationName, (input ?? {}) as never)]),
    ) as unknown as OperationMethods;
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now() + 30_000) return this.token.value;
    const response = await this.fetcher(`${this.options.baseUrl}/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: this.options.clientId, client_secret: this.options.clientSecret }),
    });
    const body = (await response.json()) as { access_token: string; expires_in: number };
    if (!response.ok) throw toError(response.status, body);
    this.token = { value: body.access_token, expiresAt: Date.now() + body.expires_in * 1000 };
    return this.token.value;
  }

  /** Any operation of the route table by name. */
  async call<Op extends OperationName>(operation: Op, input: OperationInput<Op> = {} as OperationInput<Op>): Promise<OperationResult<Op>> {
    const route: { method: string; path: string; auth: string; bare?: boolean } = operations[operation as keyof typeof operations];
    const { params, query, body, headers } = input as { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown; headers?: Record<string, string> };
    const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params?.[name] ?? '')));
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      search.set(name, Array.isArray(value) ? value.join(',') : String(value));
    }
    const url = `${this.options.baseUrl}${path}${search.size ? `?${search}` : ''}`;
    const authorization: Record<string, string> = route.auth === 'public' ? {} : { authorization: `Bearer ${await this.accessToken()}` };
    const contentType: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
    const response = await this.fetcher(url, {
      method: route.method,
      headers: { ...authorization, ...contentType, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const payload = (await response.json()) as OperationResult<Op>;
    if (!response.ok) throw toError(response.status, payload);
    return route.bare ? ({ success: true, data: payload } as OperationResult<Op>) : payload;
  }

  getAppointments(filters: AppointmentFilters = {}) {
    return this.call('getAppointments', {
      query: {
        from: filters.startDate, to: filters.endDate, provider_id: filters.providerId, client_id: filters.clientId,
        service_id: filters.serviceId, status: filters.status?.join(','), limit: filters.limit, cursor: filters.cursor,
      },
    });
  }
  getAppointment(id: string) {
    return this.call('getAppointment', { params: { id } });
  }
  createAppointment(body: OperationInput<'createAppointment'>['body'], headers?: Record<string, string>) {
    return this.call('createAppointment', { body, headers });
  }
  updateAppointment(id: string, body: OperationInput<'updateAppointment'>['body'], options: { ifMatch?: number } = {}) {
    return this.call('updateAppointment', { params: { id }, body, headers: ifMatch(options.ifMatch) });
  }
  updateAppointmentStatus(id: string, status: OperationInput<'updateAppointmentStatus'>['body']['status']) {
    return this.call('updateAppointmentStatus', { params: { id }, body: { status } });
  }
  cancelAppointment(id: string, reason?: string) {
    return this.call('cancelAppointment', { params: { id }, body: reason === undefined ? {} : { reason } });
  }
  markNoShow(id: string) {
    return this.call('markNoShow', { params: { id } });
  }
  deleteAppointment(id: string, options: { ifMatch?: number } = {}) {
    return this.call('deleteAppointment', { params: { id }, headers: ifMatch(options.ifMatch) });
  }
  sendReminder(id: string) {
    return this.call('sendReminder', { params: { id } });
  }
  recordTreatment(id: string, body: OperationInput<'recordTreatment'>['body']) {
    return this.call('recordTreatment', { params: { id }, body });
  }
  checkProviderAvailability(providerId: string, start: string, end: string, options: { roomId?: string; equipmentId?: string } = {}) {
    return this.call('checkProviderAvailability', { params: { id: providerId }, query: { start, end, room_id: options.roomId, equipment_id: options.equipmentId } });
  }
  getAvailableSlots(providerId: string, date: string, durationMinutes: number, intervalMinutes = 15, options: { roomId?: string; equipmentId?: string } = {}) {
    return this.call('getAvailableSlots', {
      params: { id: providerId },
      query: { date, duration_minutes: durationMinutes, interval_minutes: intervalMinutes, room_id: options.roomId, equipment_id: options.equipmentId },
    });
  }
  /** Bookable slots per provider and practice-local day, `from`..`to` inclusive (at most 31 days). */
  searchAvailability(search: AvailabilitySearch) {
    return this.call('searchAvailability', {
      query: {
        service_id: search.serviceId, from: search.from, to: search.to, provider_id: search.providerIds?.join(','),
        duration_minutes: search.durationMinutes, interval_minutes: search.intervalMinutes, room_id: search.roomId,
        equipment_id: search.equipmentId, time_zone: search.timeZone,
      },
    });
  }
}

const ifMatch = (version?: number): Record<string, string> => (version === undefined ? {} : { 'if-match': `"${version}"` });

function toError(status: number, body: unknown) {
  const error = (body as { error?: { code?: string; message?: string; request_id?: string; details?: FieldProblem[] } })?.error;
  return new MedspaApiError(error?.code ?? 'INTERNAL_ERROR', error?.message ?? `HTTP ${status}`, status, error?.request_id, error?.details);
}
