import type { ClientView } from '../../schemas/resources';
import type { SoftDeleted, Versioned } from './common';

/**
 * A client: no `health_score` (it depends on the time, so it is computed at read time) but the
 * no-show count it needs. Visit statistics move with appointments and payments
 * (lib/db/client-stats.ts), also after a deletion, so reports stay right.
 */
export type ClientRecord = Omit<ClientView, 'health_score'> & SoftDeleted & { no_show_count?: number };

export interface ConsentRecord extends Versioned {
  id: string;
  medspa_id: string;
  client_id: string;
  form_name: string;
  signed_at: string;
  appointment_id: string | null;
  /** The form submission it was signed with (section 14); null for consents recorded directly. */
  form_submission_id: string | null;
}

/** One normalised search term of a client (lib/domain/client-search), written with the client. */
export interface ClientSearchRecord {
  medspa_id: string;
  term: string;
  client_id: string;
  membership_status: string;
}
