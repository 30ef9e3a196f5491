import { holdTokenState } from '../crypto/hold-token';
import { issueHoldToken } from '../crypto/hold-token';
import { HOLD_SECONDS } from '../domain/holds';
import { readForBooking } from '../db/booking-reads';
import { ipHashOf } from '../db/holds';
import type { RequestWrites } from '../db/request-writes';
import { AppError } from '../errors';
import type { PublicHeldBookingInput, PublicHoldInput, PublicHoldView } from '../schemas/holds';
import type { PublicBookingView } from '../schemas/public-booking';
import { bookHold, placeHold, releaseHold } from './holds';
import { enabledSettingsOf, presentBooking, publicly, publicProvider } from './online-booking';
import { offeredAt, onlineClient, onlineClientReads, publicCandidates } from './public-booking';

/**
 * Public holds (API reference, holds): a client's browser holds an offered slot while the client
 * fills in the form, with a hold token (lib/crypto/hold-token.ts). Same rules as a public booking
 * (the booking window, offered slot starts, every refusal of the time as SLOT_UNAVAILABLE), and
 * at most MAX_PUBLIC_HOLDS_PER_IP active holds per client IP, counted on the IP's ledger in the
 * hold's own transaction.
 */

/** POST /v1/public/holds. */
export async function createPublicHold(
  medspaId: string,
  input: PublicHoldInput,
  sourceIp: string,
  now: Date,
  writes?: RequestWrites,
): Promise<PublicHoldView> {
  return publicly(async () => {
    const setup = await readForBooking(medspaId, [{ type: 'SERVICE', id: input.service_id }], []);
    const { providerIds, service: read } = publicCandidates(setup, input, now);
    const { hold, reads, service } = await placeHold(
      medspaId,
      {
        service_id: input.service_id,
        scheduledAt: input.scheduled_at,
        providerIds,
        providersOn: (found) => offeredAt(found, providerIds, input.scheduled_at),
        expiresInSeconds: HOLD_SECONDS.public,
        ipHash: ipHashOf(medspaId, sourceIp),
        buffers: read,
      },
      now,
      writes,
    );
    return {
      hold_id: hold.id,
      hold_token: issueHoldToken(hold),
      expires_at: hold.expires_at,
      scheduled_at: hold.scheduled_at,
      duration_minutes: hold.duration_minutes,
      service: { id: service.id, name: service.name },
      provider: publicProvider(reads.entity('PROVIDER', hold.provider_id)!),
      deposit_required_cents: hold.deposit_required_cents,
    };
  });
}

/** 404 HOLD_NOT_FOUND for a missing, wrong or tampered token or one of another hold; 409 HOLD_EXPIRED for this hold's token past its expiry. */
function assertHoldToken(medspaId: string, holdId: string, token: string | undefined, now: Date): void {
  const state = holdTokenState(medspaId, holdId, token, now);
  if (state === 'invalid') throw new AppError('HOLD_NOT_FOUND');
  if (state === 'expired') throw new AppError('HOLD_EXPIRED');
}

/** DELETE /v1/public/holds/{hold_id}: the staff release, by the hold's token (its IP's place is freed with it). */
export async function releasePublicHold(
  medspaId: string,
  holdId: string,
  token: string | undefined,
  options: { now: Date; writes?: RequestWrites },
): Promise<{ id: string; deleted: true }> {
  assertHoldToken(medspaId, holdId, token, options.now);
  return releaseHold(medspaId, holdId, options);
}

/**
 * POST /v1/public/bookings with `X-Hold-Token` and `hold_id`: the held time booked through the
 * confirm (one transaction), the client matched or created by email as a public booking does, in
 * that same transaction, with the deposit's payment when one is given.
 */
export async function bookHeldOnline(
  medspaId: string,
  input: PublicHeldBookingInput,
  token: string | undefined,
  now: Date,
  writes?: RequestWrites,
): Promise<PublicBookingView> {
  assertHoldToken(medspaId, input.hold_id, token, now);
  return publicly(async () => {
    const { appointment, reads } = await bookHold(
      medspaId,
      input.hold_id,
      async () => {
        const found = await onlineClientReads(medspaId, input.client.email);
        const settings = enabledSettingsOf(found.setup.practice);
        return {
          clients: found.candidates,
          online: { ledgersOf: found.candidates, consentStatesOf: input.client.consents ? found.candidates : [] },
          decide: (decided) => onlineClient(medspaId, input.client, found, settings, now, decided),
          fields: { notes: input.notes ?? null, source: 'online' },
          // A deposit charged online was charged to a card by the integrator's processor.
          deposit: input.deposit && { ...input.deposit, method: 'card' as const },
        };
      },
      now,
      writes,
    );
    return presentBooking(
      appointment,
      reads.entity('SERVICE', appointment.service_id)!,
      reads.entity('PROVIDER', appointment.provider_id)!,
    );
  });
}
