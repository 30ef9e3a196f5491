import type { Product } from '../schemas/products';
import type { ClientView } from '../schemas/resources';
import { healthScore } from './health-score';
import type { ClientContact, ClientRecord, ProductRecord } from './records';
import { isLow } from './stock';

/**
 * Stored records as the API shows them, shared by HTTP answers and event payloads (an event's
 * object is what GET would answer), so both say the same thing.
 */

/** The stored client (less its no-show count and deletion mark) plus its health score as of `now`. */
export function presentClient(client: ClientRecord, now: Date): ClientView {
  const { no_show_count: noShowCount, deleted_at: _deletedAt, ...fields } = client;
  return {
    ...fields,
    health_score: healthScore({
      lastVisitAt: client.last_visit_at,
      visitCount: client.visit_count,
      totalSpentCents: client.total_spent_cents,
      noShowCount,
      now,
    }),
  };
}

/** The stored product with `low_stock` for its `headroom`. */
/** What a notice or an offer shows of a client: its name and contact details. */
export const clientContact = (client: ClientRecord): ClientContact => ({
  id: client.id,
  first_name: client.first_name,
  last_name: client.last_name,
  email: client.email,
  phone: client.phone,
});

export function toProduct(stored: ProductRecord): Product {
  const { headroom: _headroom, ...fields } = stored;
  return { ...fields, low_stock: isLow(fields.quantity_on_hand - fields.low_stock_threshold) };
}
