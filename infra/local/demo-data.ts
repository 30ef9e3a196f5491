import { localDateOf, localTimeToInstant, weekdayKey } from '../../lib/domain/time';
import { createAppointment } from '../../lib/use-cases/booking';
import { createClient } from '../../lib/use-cases/clients';
import { createProduct } from '../../lib/use-cases/products';
import { createFacility, createProvider } from '../../lib/use-cases/resources';
import { createService } from '../../lib/use-cases/services';

/** Calendar arithmetic on a plain date. */
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const WEEKDAYS_9_TO_5 = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri'].map((day) => [day, [{ start: '09:00', end: '17:00' }]]),
);

/** The demo practice's zone (ensureDemoPractice creates it there). */
export const DEMO_TIME_ZONE = 'America/New_York';

/**
 * Demo resources for a practice (providers, rooms, equipment, services, clients, products) and a
 * week of appointments from today, so a first list is not empty. Returns how many were booked.
 */
export async function seedDemoPracticeData(
  medspaId: string,
  now: Date,
  timeZone = DEMO_TIME_ZONE,
): Promise<{ appointments: number }> {
  const [ava, marco, lena] = await Promise.all([
    createProvider(
      medspaId,
      {
        first_name: 'Ava',
        last_name: 'Reyes',
        email: 'ava.reyes@glow.example',
        title: 'Nurse Injector, RN',
        working_hours: WEEKDAYS_9_TO_5,
        active: true,
      },
      now,
    ),
    createProvider(
      medspaId,
      {
        first_name: 'Marco',
        last_name: 'Bellini',
        email: 'marco.bellini@glow.example',
        title: 'Medical Director, MD',
        working_hours: { ...WEEKDAYS_9_TO_5, sat: [{ start: '10:00', end: '14:00' }] },
        active: true,
      },
      now,
    ),
    createProvider(
      medspaId,
      {
        first_name: 'Lena',
        last_name: 'Okafor',
        email: 'lena.okafor@glow.example',
        title: 'Licensed Aesthetician',
        working_hours: WEEKDAYS_9_TO_5,
        active: true,
      },
      now,
    ),
  ]);

  const [treatmentRoom, laserSuite, hydrafacialUnit, laser] = await Promise.all([
    createFacility(
      'room',
      medspaId,
      { name: 'Treatment Room 1', description: 'Injectables and consultations', active: true },
      now,
    ),
    createFacility(
      'room',
      medspaId,
      { name: 'Laser Suite', description: 'Laser and light-based treatments', active: true },
      now,
    ),
    createFacility(
      'equipment',
      medspaId,
      { name: 'HydraFacial Syndeo', description: 'HydraFacial delivery system', active: true },
      now,
    ),
    createFacility(
      'equipment',
      medspaId,
      { name: 'Candela GentleMax Pro', description: 'Alexandrite/Nd:YAG hair removal laser', active: true },
      now,
    ),
  ]);

  const services = [
    {
      name: 'Botox',
      category: 'injectables',
      description: 'Neuromodulator for dynamic wrinkles, per area',
      price_cents: 45000,
      duration_minutes: 30,
      provider_ids: [ava.id, marco.id],
    },
    {
      name: 'HydraFacial',
      category: 'facials',
      description: 'Cleanse, extract and hydrate',
      price_cents: 22500,
      duration_minutes: 60,
      provider_ids: [lena.id, ava.id],
    },
    {
      name: 'Laser Hair Removal',
      category: 'laser',
      description: 'Small to medium area',
      price_cents: 30000,
      duration_minutes: 45,
      provider_ids: [marco.id, lena.id],
    },
    {
      name: 'Chemical Peel',
      category: 'facials',
      description: 'Medium-depth TCA peel',
      price_cents: 17500,
      duration_minutes: 45,
      provider_ids: [lena.id],
    },
  ];
  const [botox, hydrafacial, laserHair, peel] = await Promise.all(
    services.map((service) =>
      createService(medspaId, { ...service, buffer_before_minutes: 0, buffer_after_minutes: 0, active: true }, now),
    ),
  );

  const clients = [
    {
      first_name: 'Olivia',
      last_name: 'Hart',
      email: 'olivia.hart@example.com',
      phone: '+1 212 555 0142',
      date_of_birth: '1988-04-12',
      membership_status: 'active' as const,
      membership_tier: 'Glow Gold',
      tags: ['vip'],
    },
    {
      first_name: 'Noah',
      last_name: 'Castillo',
      email: 'noah.castillo@example.com',
      phone: '+1 212 555 0177',
      date_of_birth: '1992-09-03',
      membership_status: 'none' as const,
    },
    {
      first_name: 'Priya',
      last_name: 'Shah',
      email: 'priya.shah@example.com',
      phone: '+1 646 555 0119',
      date_of_birth: '1985-01-27',
      membership_status: 'paused' as const,
      membership_tier: 'Glow Silver',
    },
    {
      first_name: 'Emma',
      last_name: 'Lindqvist',
      email: 'emma.lindqvist@example.com',
      phone: '+1 917 555 0163',
      date_of_birth: '1979-11-30',
      membership_status: 'none' as const,
      tags: ['sensitive-skin'],
    },
    {
      first_name: 'James',
      last_name: 'Okoro',
      email: 'james.okoro@example.com',
      phone: '+1 718 555 0105',
      date_of_birth: '1995-06-18',
      membership_status: 'cancelled' as const,
      membership_tier: 'Glow Silver',
    },
  ];
  const people = await Promise.all(
    clients.map((client) =>
      createClient(
        medspaId,
        {
          ...client,
          address: { line1: '100 Main St', city: 'New York', region: 'NY', postal_code: '10001', country: 'US' },
        },
        now,
      ),
    ),
  );

  // Retail shelf: the eye cream starts at its threshold, so the low-stock list has one product.
  const products = [
    {
      name: 'Hydrating Hyaluronic Serum',
      sku: 'GL-SER-HA30',
      brand: 'SkinCeuticals',
      category: 'skincare',
      price_cents: 10200,
      cost_cents: 5100,
      quantity_on_hand: 24,
      low_stock_threshold: 6,
    },
    {
      name: 'Daily Mineral Sunscreen SPF 46',
      sku: 'GL-SPF-46',
      brand: 'EltaMD',
      category: 'sun care',
      price_cents: 4100,
      cost_cents: 1900,
      quantity_on_hand: 40,
      low_stock_threshold: 10,
    },
    {
      name: 'Retinol Night Cream 0.5%',
      sku: 'GL-RET-05',
      brand: 'Obagi',
      category: 'skincare',
      price_cents: 8600,
      cost_cents: 4000,
      quantity_on_hand: 15,
      low_stock_threshold: 5,
    },
    {
      name: 'Brightening Eye Cream',
      sku: 'GL-EYE-15',
      brand: 'Alastin',
      category: 'skincare',
      price_cents: 12500,
      cost_cents: 6000,
      quantity_on_hand: 3,
      low_stock_threshold: 4,
    },
    {
      name: 'Post-Procedure Recovery Balm',
      sku: 'GL-BALM-50',
      brand: 'Avene',
      category: 'aftercare',
      price_cents: 2800,
      cost_cents: 1100,
      quantity_on_hand: 30,
      low_stock_threshold: 8,
    },
  ];
  await Promise.all(products.map((product) => createProduct(medspaId, { ...product, active: true }, now)));

  // A week of appointments (today and the next 6 days, practice-local), each provider's day
  // partly booked so availability searches still find free slots.
  const day = [
    { provider: ava, service: botox, at: '10:00', room: treatmentRoom },
    { provider: ava, service: hydrafacial, at: '14:00', equipment: hydrafacialUnit },
    { provider: marco, service: laserHair, at: '11:00', room: laserSuite, equipment: laser },
    { provider: marco, service: botox, at: '15:00', room: treatmentRoom },
    { provider: lena, service: hydrafacial, at: '09:30', equipment: hydrafacialUnit },
    { provider: lena, service: peel, at: '13:00' },
  ];
  const today = localDateOf(now.toISOString(), timeZone);
  const earliest = now.getTime() + 10 * 60_000;
  let booked = 0;
  for (let offset = 0; offset < 7; offset += 1) {
    const date = addDays(today, offset);
    const weekday = weekdayKey(date);
    for (const [index, slot] of day.entries()) {
      const periods =
        (slot.provider.working_hours as Record<string, Array<{ start: string; end: string }>>)[weekday] ?? [];
      if (!periods.some((period) => period.start <= slot.at && slot.at < period.end)) continue;
      const scheduledAt = localTimeToInstant(date, slot.at, timeZone);
      if (Date.parse(scheduledAt) < earliest) continue;
      await createAppointment(
        medspaId,
        {
          client_id: people[(offset + index) % people.length].id,
          service_id: slot.service.id,
          provider_id: slot.provider.id,
          scheduled_at: scheduledAt,
          room_id: slot.room?.id ?? null,
          equipment_id: slot.equipment?.id ?? null,
          source: index % 2 === 0 ? 'online' : 'manual',
        },
        now,
      );
      booked += 1;
    }
  }
  return { appointments: booked };
}
