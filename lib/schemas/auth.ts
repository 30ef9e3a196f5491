import * as z from 'zod';
import { ROLES } from '../auth/roles';
import { DateTime, LocalDate, PageQuery } from './common';

export const Role = z.enum(ROLES);

/** JSON `{client_id, client_secret}` or the OAuth form (`grant_type=client_credentials`, maybe via Basic). */
export const TokenRequest = z.object({
  grant_type: z.literal('client_credentials').optional(),
  client_id: z.string().min(1).max(200).optional(),
  client_secret: z.string().min(1).max(500).optional(),
  scope: z.string().optional(),
});

export const TokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  scope: z.string(),
});

export const Jwks = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });

export const Credential = z.object({
  client_id: z.string(),
  medspa_id: z.string(),
  name: z.string(),
  role: Role,
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});

export const CreateCredentialBody = z.object({ name: z.string().trim().min(1).max(200), role: Role }).strict();
export const CreatedCredential = Credential.extend({ client_secret: z.string() });
export const CredentialParams = z.object({ client_id: z.string().min(1).max(200) });

/** A date-time with offset, or a practice-local date (a whole day: `from` its start, `to` its end). */
const AuditBound = z.union([DateTime, LocalDate]);
export const AuditQuery = PageQuery.extend({ from: AuditBound.optional(), to: AuditBound.optional() });
export const AuditEntry = z.object({
  at: z.string(),
  request_id: z.string(),
  client_id: z.string().nullable(),
  role: z.string().nullable(),
  operation: z.string(),
  method: z.string(),
  resource_id: z.string().nullable(),
  outcome: z.string(),
  status: z.number().int(),
});
