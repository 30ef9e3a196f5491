import * as z from './zod';
import { ids } from './appointments';
import { DateTime, doc, EXAMPLE_ID, EXAMPLE_TIME, IdOf, Instant, meta, OutId, PageQuery, schema } from './common';

/**
 * The waitlist (API reference, waitlist): clients waiting for a time of a service; freed time is
 * offered to the oldest fitting entry as a hold (docs/decisions/0032).
 */

export const WAITLIST_STATUSES = ['waiting', 'offered', 'booked', 'expired', 'cancelled'] as const;
export const MAX_WAITLIST_WINDOWS = 10;

const Window = /* @__PURE__ */ schema(() =>
  meta(
    z.strictObject({
      start: doc(DateTime, 'Start of the window, with an offset.', '2026-12-01T09:00:00-05:00'),
      end: doc(DateTime, 'End of the window (after start), with an offset.', '2026-12-01T13:00:00-05:00'),
    }),
    { description: 'A span the client can come in: an offered time lies wholly inside one window.' },
  ),
);

export const CreateWaitlistEntryBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      client_id: ids.client,
      service_id: ids.service,
      provider_ids: doc(
        z.optional(
          z
            .array(IdOf('provider', 'A provider the client accepts (else 404 PROVIDER_NOT_FOUND).'))
            .check(z.minLength(1), z.maxLength(20)),
        ),
        'The providers the client accepts (1-20); default: any provider certified for the service.',
        [EXAMPLE_ID.provider],
      ),
      windows: doc(
        z.array(Window).check(z.minLength(1), z.maxLength(MAX_WAITLIST_WINDOWS)),
        `When the client can come (1-${MAX_WAITLIST_WINDOWS} windows, each end after its start).`,
        [{ start: '2026-12-01T09:00:00-05:00', end: '2026-12-01T13:00:00-05:00' }],
      ),
      expires_at: doc(
        z.optional(DateTime),
        'When the entry stops waiting (then `expired`); default: never (it still only fits times inside its windows).',
        '2026-12-01T13:00:00-05:00',
      ),
    }),
    'A client waiting for a time of a service. Creating it makes no offer: offers come from time that frees up.',
  ),
);
export type CreateWaitlistEntryInput = z.output<typeof CreateWaitlistEntryBody>;

const Offer = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      hold_id: OutId('hold', 'The hold on the offered time (`GET /v1/holds/{id}`).'),
      scheduled_at: Instant('Start of the offered time (UTC).', EXAMPLE_TIME.start),
      provider_id: OutId('provider', 'The provider of the offered time.'),
      expires_at: Instant(
        "When the offer lapses (its hold's expiry, `waitlist_offer_minutes` after it was made).",
        '2026-11-23T14:35:09.412Z',
      ),
    }),
    { description: 'The time offered to the entry, held for it until `expires_at`.', id: 'WaitlistOffer' },
  ),
);

export const WaitlistEntry = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      id: OutId('waitlistEntry', 'The entry id.'),
      client_id: OutId('client', 'The client waiting.'),
      service_id: OutId('service', 'The service wanted.'),
      provider_ids: doc(z.nullable(z.array(z.string())), 'The providers accepted; null: any certified one.', null),
      windows: doc(
        z.array(
          z.object({
            start: Instant('Window start (UTC).', EXAMPLE_TIME.start),
            end: Instant('Window end (UTC).', EXAMPLE_TIME.end),
          }),
        ),
        'When the client can come.',
        [{ start: EXAMPLE_TIME.start, end: EXAMPLE_TIME.end }],
      ),
      expires_at: doc(z.nullable(z.string()), 'When it stops waiting (UTC); null: never.', null),
      status: doc(
        z.enum(WAITLIST_STATUSES),
        'waiting; offered (see `offer`); booked (see `appointment_id`); expired (past `expires_at` while waiting); cancelled (deleted).',
        'waiting',
      ),
      offer: doc(z.nullable(Offer), 'The current offer (status offered), else null.', null),
      appointment_id: doc(
        z.nullable(z.string()),
        'The appointment booked from its offer (status booked), else null.',
        null,
      ),
      version: doc(z.number().check(z.int()), 'Version, +1 per change.', 1),
      created_at: Instant('When it was made (UTC).'),
      updated_at: Instant('Last change (UTC).', EXAMPLE_TIME.updated),
    }),
    {
      description: 'A waitlist entry: a client waiting for a time of a service inside its windows.',
      id: 'WaitlistEntry',
    },
  ),
);
export type WaitlistEntry = z.output<typeof WaitlistEntry>;

/** `waitlist.offer_created`'s object: the entry with its offer, and whom to tell. */
export const WaitlistOfferEvent = /* @__PURE__ */ schema(() =>
  meta(
    z.extend(WaitlistEntry, {
      client: doc(
        z.object({
          id: OutId('client', 'The client.'),
          first_name: doc(z.string(), 'First name.', 'Olivia'),
          last_name: doc(z.string(), 'Last name.', 'Hart'),
          email: doc(z.nullable(z.string()), 'Email, if any.', 'olivia.hart@example.com'),
          phone: doc(z.nullable(z.string()), 'Phone, if any.', '+15555550123'),
        }),
        "The client's contact details as the offer was made, to tell them of it.",
      ),
    }),
    { description: 'A waitlist entry with its new offer and the client to tell.', id: 'WaitlistOfferEvent' },
  ),
);

export const ListWaitlistQuery = /* @__PURE__ */ schema(() =>
  z.extend(PageQuery, {
    service_id: z.optional(IdOf('service', 'Only entries of this service (oldest first); without it, all entries.')),
    status: doc(z.optional(z.enum(WAITLIST_STATUSES)), 'Only entries in this status.', 'waiting'),
  }),
);
export type ListWaitlistQuery = z.output<typeof ListWaitlistQuery>;

export const WaitlistParams = /* @__PURE__ */ schema(() =>
  z.object({ id: IdOf('waitlistEntry', 'The entry id (else 404 WAITLIST_ENTRY_NOT_FOUND).') }),
);
