import type { CurrentConsent, ListedConsent, RecordedConsentChange } from '../contact-consent';
import type { ClientView } from '../../schemas/resources';
import type { SoftDeleted, Versioned } from './common';

/**
 * A client: no `health_score` (it depends on the time, so it is computed at read time) but the
 * no-show count it needs. Visit statistics move with appointments and payments
 * (lib/db/client-stats.ts), also after a deletion, so reports stay right.
 */
export type ClientRecord = Omit<ClientView, 'health_score'> & SoftDeleted & { no_show_count?: number };

/** A client's name and contact details as a notice or an offer carries them (for the practice's messaging tool). */
export interface ClientContact {
  id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
}

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

/** A client's contact consent state (lib/domain/contact-consent.ts): `version` is the number of changes recorded. */
export interface ContactConsentStateRecord {
  medspa_id: string;
  client_id: string;
  version: number;
  current: CurrentConsent[];
  updated_at: string;
}

/** One recorded contact consent change: written once, never changed (the table stream's `client.contact_consent_changed`). */
export interface ContactConsentChangeRecord extends RecordedConsentChange {
  medspa_id: string;
  client_id: string;
}

/** A client on a marketing consent's list (`GET /v1/clients?consent=`) while that consent is granted. */
export interface ConsentedClientRecord {
  medspa_id: string;
  consent: ListedConsent;
  client_id: string;
  since: string;
}
