import * as z from './zod';
import {
  CONSENT_CHANNELS,
  CONSENT_PURPOSES,
  CONSENT_SOURCES,
  CONSENT_STATUSES,
  HISTORY_SHOWN,
  LISTED_CONSENTS,
} from '../domain/contact-consent';
import { doc, Id, Instant, meta, OutId, schema } from './common';

/** Contact consent (API reference, section 14, "Contact consent"; docs/guide/contact-consent.md). */

const EXAMPLE_TEXT = 'Yes, text me offers and news from Glow Med Spa. Reply STOP to opt out.';

const Channel = /* @__PURE__ */ schema(() =>
  doc(z.enum(CONSENT_CHANNELS), 'How the client is contacted: `sms` or `email`.', 'sms'),
);
const Purpose = /* @__PURE__ */ schema(() =>
  doc(
    z.enum(CONSENT_PURPOSES),
    'What for: `marketing` (offers, news) or `transactional` (reminders, receipts).',
    'marketing',
  ),
);
const Status = /* @__PURE__ */ schema(() =>
  doc(z.enum(CONSENT_STATUSES), '`granted` (the client agreed) or `revoked` (the client withdrew).', 'granted'),
);
const Source = /* @__PURE__ */ schema(() =>
  doc(
    z.enum(CONSENT_SOURCES),
    'Where the change came from: `staff` (recorded by the practice), `public` (the client, on a public booking), `import` (brought over from another system).',
    'staff',
  ),
);

export const Evidence = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      text_shown: doc(
        z.string().check(z.trim(), z.minLength(1), z.maxLength(2000)),
        'The exact wording the client agreed to or withdrew under (1-2000 characters).',
        EXAMPLE_TEXT,
      ),
    }),
    'What the client was shown: the proof an SMS or email tool keeps.',
  ),
);

export const ContactConsentParams = /* @__PURE__ */ schema(() =>
  z.object({
    id: Id,
    channel: doc(z.enum(CONSENT_CHANNELS), '`sms` or `email` (else 400 VALIDATION_ERROR).', 'sms'),
    purpose: doc(z.enum(CONSENT_PURPOSES), '`marketing` or `transactional` (else 400 VALIDATION_ERROR).', 'marketing'),
  }),
);

export const SetContactConsentBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      status: Status,
      source: Source,
      evidence: z.optional(Evidence),
    }),
    'A change of one channel and purpose. Every call records a history entry (a repeated grant is a re-confirmation, kept with its own evidence).',
    { status: 'granted', source: 'staff', evidence: { text_shown: EXAMPLE_TEXT } },
  ),
);
export type SetContactConsentInput = z.output<typeof SetContactConsentBody>;

export const ContactConsentChange = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      channel: Channel,
      purpose: Purpose,
      status: Status,
      source: Source,
      evidence: z.nullable(Evidence),
      recorded_at: Instant('When it was recorded (UTC).', '2026-11-23T14:45:00.000Z'),
    }),
    {
      description:
        'One recorded change, immutable. Answered by the PUT: at that moment it is also the current state of its channel and purpose.',
      id: 'ContactConsentChange',
    },
  ),
);

export const CurrentContactConsent = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      channel: Channel,
      purpose: Purpose,
      status: Status,
      source: Source,
      updated_at: Instant('When this channel and purpose last changed (UTC).', '2026-11-23T14:45:00.000Z'),
    }),
    {
      description: 'The state of one channel and purpose: that of its newest history entry.',
      id: 'CurrentContactConsent',
    },
  ),
);

export const ContactConsents = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      current: doc(
        z.array(CurrentContactConsent),
        'One entry per channel and purpose ever recorded (sms then email, marketing then transactional); one never recorded is absent: treat it as not granted.',
      ),
      history: doc(
        z.array(ContactConsentChange),
        `The latest ${HISTORY_SHOWN} changes, newest first (in the order they were committed). Older ones are kept but not shown.`,
      ),
    }),
    {
      description: "A client's contact consents: the current state and the history of changes.",
      id: 'ContactConsents',
    },
  ),
);

/** What a `client.contact_consent_changed` event carries: the change, the client's id, and its place in the client's history. */
export const ContactConsentEvent = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      client_id: OutId('client', 'The client (GET /v1/clients/{id} for the phone number or email).'),
      channel: Channel,
      purpose: Purpose,
      status: Status,
      source: Source,
      evidence: z.nullable(Evidence),
      recorded_at: Instant('When it was recorded (UTC).', '2026-11-23T14:45:00.000Z'),
      sequence: doc(
        z.number().check(z.int()),
        "The change's number in the client's history (1, 2, ...): a receiver that sees a lower one after a higher one for the same client drops it (deliveries may come out of order).",
        3,
      ),
    }),
    { description: 'A contact consent change of a client.', id: 'ContactConsentEvent' },
  ),
);

/** `GET /v1/clients?consent=`. */
export const ConsentFilter = /* @__PURE__ */ schema(() =>
  doc(
    z.optional(z.enum(LISTED_CONSENTS)),
    'Only clients whose current state of this consent is `granted`, in id order. Not combinable with `q` or `membership_status` (400).',
    'sms_marketing',
  ),
);

/** A public booking's `client.consents` (section 14). */
export const PublicConsents = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      sms_marketing: doc(z.optional(z.boolean()), '`true`: the client agrees to marketing texts.', true),
      email_marketing: doc(z.optional(z.boolean()), '`true`: the client agrees to marketing emails.', false),
      text_shown: doc(
        z.string().check(z.trim(), z.minLength(1), z.maxLength(2000)),
        'The exact wording the checkboxes showed, kept as evidence (1-2000 characters).',
        EXAMPLE_TEXT,
      ),
    }),
    'What the client agreed to on the booking page: each `true` is recorded as a grant (source `public`) for the client booked as, unless already granted; `false` or absent records nothing (a booking never revokes).',
  ),
);
