import { createProduct } from '../../lib/use-cases/products';
import { createClient } from '../../lib/use-cases/clients';
import { createFacility, createProvider, createService } from '../../lib/use-cases/resources';

const WEEKDAYS_9_TO_5 = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((day) => [day, [{ start: '09:00', end: '17:00' }]]));

/** Demo resources for a practice (providers, rooms, equipment, services, clients, products). */
export async function seedDemoPracticeData(medspaId: string, now: Date): Promise<void> {
  const [ava, marco, lena] = await Promise.all([
    createProvider(medspaId, { first_name: 'Ava', last_name: 'Reyes', email: 'ava.reyes@glow.example', title: 'Nurse Injector, RN', working_hours: WEEKDAYS_9_TO_5, active: true }, now),
    createProvider(
      medspaId,
      { first_name: 'Marco', last_name: 'Bellini', email: 'marco.bellini@glow.example', title: 'Medical Director, MD', working_hours: { ...WEEKDAYS_9_TO_5, sat: [{ start: '10:00', end: '14:00' }] }, active: true },
      now,
    ),
    createProvider(medspaId, { first_name: 'Lena', last_name: 'Okafor', email: 'lena.okafor@glow.example', title: 'Licensed Aesthetician', working_hours: WEEKDAYS_9_TO_5, active: true }, now),
  ]);

  await Promise.all([
    createFacility('room', medspaId, { name: 'Treatment Room 1', description: 'Injectables and consultations', active: true }, now),
    createFacility('room', medspaId, { name: 'Laser Suite', description: 'Laser and light-based treatments', active: true }, now),
    createFacility('equipment', medspaId, { name: 'HydraFacial Syndeo', description: 'HydraFacial delivery system', active: true }, now),
    createFacility('equipment', medspaId, { name: 'Candela GentleMax Pro', description: 'Alexandrite/Nd:YAG hair removal laser', active: true }, now),
  ]);

  const services = [
    { name: 'Botox', category: 'injectables', description: 'Neuromodulator for dynamic wrinkles, per area', price_cents: 45000, duration_minutes: 30, provider_ids: [ava.id, marco.id] },
    { name: 'HydraFacial', category: 'facials', description: 'Cleanse, extract and hydrate', price_cents: 22500, duration_minutes: 60, provider_ids: [lena.id, ava.id] },
    { name: 'Laser Hair Removal', category: 'laser', description: 'Small to medium area', price_cents: 30000, duration_minutes: 45, provider_ids: [marco.id, lena.id] },
    { name: 'Chemical Peel', category: 'facials', description: 'Medium-depth TCA peel', price_cents: 17500, duration_minutes: 45, provider_ids: [lena.id] },
  ];
  await Promise.all(services.map((service) => createService(medspaId, { ...service, active: true }, now)));

  const clients = [
    { first_name: 'Olivia', last_name: 'Hart', email: 'olivia.hart@example.com', phone: '+1 212 555 0142', date_of_birth: '1988-04-12', membership_status: 'active' as const, membership_tier: 'Glow Gold', tags: ['vip'] },
    { first_name: 'Noah', last_name: 'Castillo', email: 'noah.castillo@example.com', phone: '+1 212 555 0177', date_of_birth: '1992-09-03', membership_status: 'none' as const },
    { first_name: 'Priya', last_name: 'Shah', email: 'priya.shah@example.com', phone: '+1 646 555 0119', date_of_birth: '1985-01-27', membership_status: 'paused' as const, membership_tier: 'Glow Silver' },
    { first_name: 'Emma', last_name: 'Lindqvist', email: 'emma.lindqvist@example.com', phone: '+1 917 555 0163', date_of_birth: '1979-11-30', membership_status: 'none' as const, tags: ['sensitive-skin'] },
    { first_name: 'James', last_name: 'Okoro', email: 'james.okoro@example.com', phone: '+1 718 555 0105', date_of_birth: '1995-06-18', membership_status: 'cancelled' as const, membership_tier: 'Glow Silver' },
  ];
  await Promise.all(
    clients.map((client) =>
      createClient(medspaId, { ...client, address: { line1: '100 Main St', city: 'New York', region: 'NY', postal_code: '10001', country: 'US' } }, now),
    ),
  );

  // Retail shelf: the eye cream starts at its threshold, so the low-stock list has one product.
  const products = [
    { name: 'Hydrating Hyaluronic Serum', sku: 'GL-SER-HA30', brand: 'SkinCeuticals', category: 'skincare', price_cents: 10200, cost_cents: 5100, quantity_on_hand: 24, low_stock_threshold: 6 },
    { name: 'Daily Mineral Sunscreen SPF 46', sku: 'GL-SPF-46', brand: 'EltaMD', category: 'sun care', price_cents: 4100, cost_cents: 1900, quantity_on_hand: 40, low_stock_threshold: 10 },
    { name: 'Retinol Night Cream 0.5%', sku: 'GL-RET-05', brand: 'Obagi', category: 'skincare', price_cents: 8600, cost_cents: 4000, quantity_on_hand: 15, low_stock_threshold: 5 },
    { name: 'Brightening Eye Cream', sku: 'GL-EYE-15', brand: 'Alastin', category: 'skincare', price_cents: 12500, cost_cents: 6000, quantity_on_hand: 3, low_stock_threshold: 4 },
    { name: 'Post-Procedure Recovery Balm', sku: 'GL-BALM-50', brand: 'Avene', category: 'aftercare', price_cents: 2800, cost_cents: 1100, quantity_on_hand: 30, low_stock_threshold: 8 },
  ];
  await Promise.all(products.map((product) => createProduct(medspaId, { ...product, active: true }, now)));
}
