import { operations } from './operations.js';
import { Tokens, Transport, type CallInput, type ClientOptions, type RequestOptions } from './transport.js';
import type { Operations, OperationsWithRequiredInput, Pagination } from './types.js';

/**
 * The typed TypeScript client of medspa-api (API reference, typed client). Its types are
 * generated from the OpenAPI document by openapi-typescript (./schema.ts, read per operation in
 * ./types.ts) and its operation table is plain data (./operations.ts): importing it pulls in no
 * server code, so it runs in browsers and under any bundler, and type-checks under
 * `moduleResolution` NodeNext and Bundler alike. Its transport is openapi-fetch with middleware
 * for the token, the Idempotency-Key and retries (./transport.ts).
 *
 * One call style: every operation is `client.api.<operationId>(input, options?)`; `paginate`
 * walks any list; the appointment operations also have the contract's methods on top.
 */

export type * from './types.js';
export { MedspaApiError, type ClientErrorCode } from './errors.js';
export type { ClientOptions, RequestOptions } from './transport.js';
export type OperationName = keyof Operations;
/** What one operation takes: `params`, `query` and `body` as the API names them. */
export type OperationInput<Op extends OperationName> = Operations[Op]['input'];
/** An operation's `data`. */
export type OperationData<Op extends OperationName> = Operations[Op]['output'];
/** Operations that answer a page of a list (`paginate` walks them). */
export type ListOperationName = {
  [Op in OperationName]: Operations[Op]['item'] extends never ? never : Op;
}[OperationName];
export type ListItem<Op extends ListOperationName> = Operations[Op]['item'];

/** The contract's success envelope (bare answers, such as the token's, are wrapped in it too). */
export interface Envelope<T, P = Pagination> {
  success: true;
  data: T;
  pagination?: P;
}
/** A list's `pagination` is its own (the event feed's is `FeedPagination`: no `total`, a cursor never null, `has_more`). */
export type OperationResult<Op extends OperationName> = Envelope<
  OperationData<Op>,
  [Operations[Op]['pagination']] extends [never] ? Pagination : Operations[Op]['pagination']
>;

type Args<Op extends OperationName> = Op extends OperationsWithRequiredInput
  ? [input: OperationInput<Op>, options?: RequestOptions]
  : [input?: OperationInput<Op>, options?: RequestOptions];

/** Every operation as a method: `client.api.createProvider({ body })`. */
export type OperationMethods = { [Op in OperationName]: (...args: Args<Op>) => Promise<OperationResult<Op>> };

export interface AppointmentFilters {
  /** Practice-local dates (YYYY-MM-DD), both inclusive. */
  startDate?: string;
  endDate?: string;
  providerId?: string;
  clientId?: string;
  serviceId?: string;
  status?: Array<Operations['createAppointment']['output']['status']>;
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

export class MedspaClient {
  /** Every operation by its contract name, typed by its schemas. */
  readonly api: OperationMethods;

  private readonly tokens: Tokens;
  private readonly transport: Transport;

  constructor(options: ClientOptions) {
    // Exchanging twice is harmless (a token is not a resource), so the exchange is always retried.
    const credential = { client_id: options.clientId, client_secret: options.clientSecret };
    this.tokens = new Tokens(async () => {
      // A publishable-key client (a browser) calls the public operations only.
      if (!credential.client_id || !credential.client_secret)
        throw new Error("This operation needs the client's clientId and clientSecret");
      return (
        (await this.transport.send(
          operations.createToken,
          { body: credential },
          {},
          true,
        )) as OperationResult<'createToken'>
      ).data;
    });
    this.transport = new Transport(options, this.tokens);
    this.api = Object.fromEntries(
      Object.entries(operations).map(([operation, row]) => [
        operation,
        (input?: CallInput, requestOptions?: RequestOptions) => this.transport.send(row, input, requestOptions),
      ]),
    ) as unknown as OperationMethods;
  }

  /**
   * Every item of a list, page after page: `for await (const client of api.paginate('listClients', { query: { q: 'oli' } }))`.
   * `query.limit` is the page size (default 100); `query.cursor` is where to start. Ends where `pages` ends.
   */
  async *paginate<Op extends ListOperationName>(
    operation: Op,
    ...args: Args<Op>
  ): AsyncGenerator<ListItem<Op>, void, undefined> {
    for await (const page of this.pages(operation, ...args)) yield* page.data;
  }

  /**
   * Every page of a list, each with its `pagination`. A list ends at a null `next_cursor`; the
   * event feed (`listEvents`), whose cursor is never null, ends on a page with `has_more: false`
   * (caught up): keep that page's `next_cursor` and start the next walk from it
   * (`{ query: { cursor } }`) to read exactly the events kept since.
   */
  async *pages<Op extends ListOperationName>(
    operation: Op,
    ...[input, requestOptions]: Args<Op>
  ): AsyncGenerator<Envelope<Array<ListItem<Op>>, Operations[Op]['pagination']>, void, undefined> {
    const base = (input ?? {}) as CallInput;
    let cursor = base.query?.cursor as string | undefined;
    let more = true;
    do {
      const query = { limit: 100, ...base.query, ...(cursor ? { cursor } : {}) };
      const page = (await this.transport.send(operations[operation], { ...base, query }, requestOptions)) as Envelope<
        Array<ListItem<Op>>,
        Operations[Op]['pagination']
      >;
      yield page;
      const pagination = page.pagination as { next_cursor?: string | null; has_more?: boolean } | undefined;
      cursor = pagination?.next_cursor ?? undefined;
      more = pagination?.has_more !== false;
    } while (cursor && more);
  }

  /** Forgets the token: the next call exchanges the credential again. */
  signOut(): void {
    this.tokens.forget();
  }

  // ---- appointments, by the seed's operation names (API reference, typed client) ---------------------------

  getAppointments(filters: AppointmentFilters = {}, options?: RequestOptions) {
    return this.api.getAppointments(
      {
        query: {
          from: filters.startDate,
          to: filters.endDate,
          provider_id: filters.providerId,
          client_id: filters.clientId,
          service_id: filters.serviceId,
          status: filters.status?.join(','),
          limit: filters.limit,
          cursor: filters.cursor,
        },
      },
      options,
    );
  }
  getAppointment(id: string, options?: RequestOptions) {
    return this.api.getAppointment({ params: { id } }, options);
  }
  createAppointment(body: OperationInput<'createAppointment'>['body'], options?: RequestOptions) {
    return this.api.createAppointment({ body }, options);
  }
  updateAppointment(
    id: string,
    body: OperationInput<'updateAppointment'>['body'],
    options: RequestOptions & { ifMatch?: number } = {},
  ) {
    return this.api.updateAppointment({ params: { id }, body }, withIfMatch(options));
  }
  updateAppointmentStatus(
    id: string,
    status: OperationInput<'updateAppointmentStatus'>['body']['status'],
    options?: RequestOptions,
  ) {
    return this.api.updateAppointmentStatus({ params: { id }, body: { status } }, options);
  }
  cancelAppointment(id: string, reason?: string, options: RequestOptions & { ifMatch?: number } = {}) {
    return this.api.cancelAppointment(
      { params: { id }, body: reason === undefined ? {} : { reason } },
      withIfMatch(options),
    );
  }
  markNoShow(id: string, options: RequestOptions & { ifMatch?: number } = {}) {
    return this.api.markNoShow({ params: { id } }, withIfMatch(options));
  }
  deleteAppointment(id: string, options: RequestOptions & { ifMatch?: number } = {}) {
    return this.api.deleteAppointment({ params: { id } }, withIfMatch(options));
  }
  sendReminder(id: string, options?: RequestOptions) {
    return this.api.sendReminder({ params: { id } }, options);
  }
  recordTreatment(id: string, body: OperationInput<'recordTreatment'>['body'], options?: RequestOptions) {
    return this.api.recordTreatment({ params: { id }, body }, options);
  }
  /** The current treatment record, draft or signed (section 13). */
  getTreatmentRecord(id: string, options?: RequestOptions) {
    return this.api.getTreatmentRecord({ params: { id } }, options);
  }
  signTreatmentRecord(id: string, options: RequestOptions & { ifMatch?: number } = {}) {
    return this.api.signTreatmentRecord({ params: { id } }, withIfMatch(options));
  }
  amendTreatmentRecord(
    id: string,
    body: OperationInput<'amendTreatmentRecord'>['body'],
    options: RequestOptions & { ifMatch?: number } = {},
  ) {
    return this.api.amendTreatmentRecord({ params: { id }, body }, withIfMatch(options));
  }
  listTreatmentRecordVersions(id: string, options?: RequestOptions) {
    return this.api.listTreatmentRecordVersions({ params: { id } }, options);
  }
  checkProviderAvailability(
    providerId: string,
    start: string,
    end: string,
    /** `serviceId`: give the interval that service's buffers (contract section 11). */
    options: { roomId?: string; equipmentId?: string; serviceId?: string } & RequestOptions = {},
  ) {
    return this.api.checkProviderAvailability(
      {
        params: { id: providerId },
        query: {
          start,
          end,
          room_id: options.roomId,
          equipment_id: options.equipmentId,
          service_id: options.serviceId,
        },
      },
      options,
    );
  }
  getAvailableSlots(
    providerId: string,
    date: string,
    durationMinutes: number,
    intervalMinutes = 15,
    /** `serviceId`: slots leave room for that service's buffers (contract section 11). */
    options: { roomId?: string; equipmentId?: string; serviceId?: string } & RequestOptions = {},
  ) {
    return this.api.getAvailableSlots(
      {
        params: { id: providerId },
        query: {
          date,
          duration_minutes: durationMinutes,
          interval_minutes: intervalMinutes,
          room_id: options.roomId,
          equipment_id: options.equipmentId,
          service_id: options.serviceId,
        },
      },
      options,
    );
  }
  /** Bookable slots per provider and practice-local day, `from`..`to` inclusive (at most 31 days). */
  searchAvailability(search: AvailabilitySearch, options?: RequestOptions) {
    return this.api.searchAvailability(
      {
        query: {
          service_id: search.serviceId,
          from: search.from,
          to: search.to,
          provider_id: search.providerIds?.join(','),
          duration_minutes: search.durationMinutes,
          interval_minutes: search.intervalMinutes,
          room_id: search.roomId,
          equipment_id: search.equipmentId,
          time_zone: search.timeZone,
        },
      },
      options,
    );
  }
}

const withIfMatch = (options: RequestOptions & { ifMatch?: number }): RequestOptions => {
  const { ifMatch, ...rest } = options;
  return ifMatch === undefined ? rest : { ...rest, headers: { ...rest.headers, 'if-match': `"${ifMatch}"` } };
};
