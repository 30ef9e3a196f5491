import { depositRequiredCents } from '../domain/deposits';
import { PUBLIC_SLOT_MINUTES } from '../domain/online-booking';
import { localDateOf } from '../domain/time';
import { activeServices } from '../db/online-booking';
import { getLiveEntities } from '../db/resources';
import { AppError } from '../errors';
import type * as z from '../schemas/zod';
import type { PublicAvailabilityQuery, PublicService } from '../schemas/public-booking';
import {
  availabilityOf,
  checkInput,
  readSetup,
  type AvailabilityEntry,
  type SearchAvailabilityInput,
} from './availability-search';
import type { PracticeRecord } from '../domain/records';
import type { ProviderRecord } from '../db/booking-reads';
import { bookingWindow, enabledSettingsOf, publicly, publicProvider } from './online-booking';

/** What a stranger may browse before booking (API reference, online booking): services and free times. */

const isBookable = (provider: ProviderRecord | undefined) => Boolean(provider && provider.active !== false);

/**
 * GET /v1/public/services: active services with at least one active certified provider, by
 * name. The practice is the one read with the publishable key (lib/http/auth.ts); the services'
 * Query, then one BatchGetItem of their providers.
 */
export async function publicServices(practice: PracticeRecord): Promise<z.output<typeof PublicService>[]> {
  enabledSettingsOf(practice);
  const medspaId = practice.id;
  const services = await activeServices(medspaId);
  const providers = await getLiveEntities(
    medspaId,
    'PROVIDER',
    services.flatMap((service) => service.provider_ids ?? []),
  );
  return services
    .filter((service) => (service.provider_ids ?? []).some((id) => isBookable(providers.get(id))))
    .sort((a, b) => a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1))
    .map(({ id, name, category, description, duration_minutes, price_cents, deposit }) => ({
      id,
      name,
      category,
      description,
      duration_minutes,
      price_cents,
      deposit_required_cents: depositRequiredCents({ deposit, price_cents }),
    }));
}

/**
 * GET /v1/public/availability: the staff search (same reads, same slot rule) cut to the booking
 * window, each provider as `{ id, display_name }`.
 */
export async function publicAvailability(
  medspaId: string,
  query: z.output<typeof PublicAvailabilityQuery>,
  now: Date,
): Promise<AvailabilityEntry<{ id: string; display_name: string }>[]> {
  const input: SearchAvailabilityInput = {
    serviceId: query.service_id,
    from: query.from,
    to: query.to,
    providerIds: query.provider_id ? [query.provider_id] : undefined,
    intervalMinutes: PUBLIC_SLOT_MINUTES,
  };
  checkInput(input);
  const setup = await publicly(() => readSetup(medspaId, input));
  const settings = enabledSettingsOf(setup.practice);
  if (!setup.service || setup.service.active === false) throw new AppError('SERVICE_NOT_FOUND');
  const providers = setup.providers.filter(isBookable);
  if (providers.length === 0) throw new AppError(query.provider_id ? 'PROVIDER_NOT_FOUND' : 'SERVICE_NOT_FOUND');
  const window = bookingWindow(now, settings, setup.zone);
  const today = localDateOf(now.toISOString(), setup.zone);
  const from = query.from < today ? today : query.from;
  const to = query.to > window.lastDate ? window.lastDate : query.to;
  if (to < from) return [];
  return availabilityOf(
    medspaId,
    { ...setup, providers },
    { ...input, from, to },
    new Date(window.earliestStart),
    publicProvider,
  );
}
