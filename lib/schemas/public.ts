import * as z from './zod';
import { doc, meta, schema } from './common';
import { OnlineBooking } from './practice';

/** What a stranger may know of the practice (API reference, online booking): nothing more. */
export const PublicPractice = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      name: doc(z.string(), 'Name.', 'Glow Aesthetics'),
      time_zone: doc(
        z.string(),
        'IANA time zone: the dates and times of the public operations are local to it.',
        'America/New_York',
      ),
      currency: doc(z.string(), 'ISO 4217 currency of every *_cents amount.', 'USD'),
      online_booking: doc(
        z.pick(OnlineBooking, {
          horizon_days: true,
          min_notice_minutes: true,
          cancel_cutoff_minutes: true,
          deposit_note: true,
        }),
        'The booking window, the manage cutoff, and the note shown with services that ask a deposit.',
      ),
    }),
    { description: 'The practice, as its booking page shows it.', id: 'PublicPractice' },
  ),
);
