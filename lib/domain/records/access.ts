import type { Role } from '../../auth/roles';
import type { KeyRateLimits } from '../rate-limit';

/** API credentials and the audit log. */

export interface CredentialRecord {
  id: string;
  client_id: string;
  medspa_id: string;
  name: string;
  role: Role;
  secret_hash: string;
  revoked_at?: string;
  version: number;
  created_at: string;
  updated_at: string;
}

/** A publishable key (API reference, online booking): not a secret; `key` names its practice and id. */
export interface PublishableKeyRecord {
  id: string;
  medspa_id: string;
  key: string;
  name: string;
  allowed_origins: string[];
  /** Absent on keys made before keys had their own limits: those follow the configured defaults. */
  rate_limits?: KeyRateLimits;
  version: number;
  created_at: string;
  updated_at: string;
}

/** One audited call. */
export interface AuditRecord {
  medspa_id: string;
  at: string;
  request_id: string;
  client_id: string | null;
  role: string | null;
  operation: string;
  method: string;
  resource_id: string | null;
  outcome: string;
  status: number;
}
