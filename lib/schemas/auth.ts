import * as z from './zod';
import { ROLES } from '../auth/roles';
import { DateTime, doc, Instant, LocalDate, meta, PageQuery, schema } from './common';

export const Role = /* @__PURE__ */ schema(() =>
  doc(z.enum(ROLES), 'What the credential may do (see the roles of each operation).', 'front_desk'),
);

/** JSON `{client_id, client_secret}` or the OAuth form (`grant_type=client_credentials`, maybe via Basic). */
export const TokenRequest = /* @__PURE__ */ schema(() =>
  doc(
    z.object({
      grant_type: doc(
        z.optional(z.literal('client_credentials')),
        'OAuth 2.0 grant type (RFC 6749 4.4); optional with JSON.',
        'client_credentials',
      ),
      client_id: doc(
        z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
        'The credential id (or send HTTP Basic).',
        'ms_3f2b8c1e_admin_x7k2p9',
      ),
      client_secret: doc(
        z.optional(z.string().check(z.minLength(1), z.maxLength(500))),
        'The credential secret (or send HTTP Basic).',
        'sk_live_8JcR2vX4mN7qT1wZ5yB3',
      ),
      scope: doc(z.optional(z.string()), 'Ignored: the role of the credential decides.', ''),
    }),
    'Client credentials, as JSON or as the OAuth 2.0 form.',
  ),
);

export const TokenResponse = /* @__PURE__ */ schema(() =>
  doc(
    z.object({
      access_token: doc(
        z.string(),
        'An ES256 JWT: send it as `Authorization: Bearer <token>`.',
        'eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiJtc19hZG1pbiJ9.c2lnbmF0dXJl',
      ),
      token_type: doc(z.literal('Bearer'), 'Always Bearer.', 'Bearer'),
      expires_in: doc(z.number().check(z.int()), 'Seconds until it expires.', 3600),
      scope: doc(z.string(), "The credential's role.", 'admin'),
    }),
    'An access token (RFC 6749 5.1; no envelope).',
  ),
);

export const Jwks = /* @__PURE__ */ schema(() =>
  doc(
    z.object({
      keys: doc(
        z.array(doc(z.record(z.string(), z.unknown()), 'A public JWK (RFC 7517).')),
        'The public keys that verify access tokens, by `kid`.',
        [
          {
            kty: 'EC',
            crv: 'P-256',
            kid: 'k1',
            use: 'sig',
            alg: 'ES256',
            x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
            y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
          },
        ],
      ),
    }),
    'A JSON Web Key Set (RFC 7517; no envelope).',
  ),
);

export const Credential = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      client_id: doc(z.string(), 'The credential id (names its practice).', 'ms_3f2b8c1e_frontdesk_q8w3e5'),
      medspa_id: meta(doc(z.string(), 'The practice it belongs to.', '3f2b8c1e-7d4a-4e59-9b10-2c6d8e4f1a01'), {
        format: 'uuid',
      }),
      name: doc(z.string(), 'A label for people.', 'Front desk tablet'),
      role: Role,
      created_at: Instant('When it was created.'),
      revoked_at: meta(z.nullable(Instant('When it was revoked; null while it works.')), { examples: [null] }),
    }),
    { description: 'An API credential (its secret is never shown again).', id: 'Credential' },
  ),
);

export const CreateCredentialBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      name: doc(
        z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
        'A label for people (1-200 characters).',
        'Front desk tablet',
      ),
      role: Role,
    }),
    'The new credential.',
  ),
);
export const CreatedCredential = /* @__PURE__ */ schema(() =>
  meta(
    z.extend(Credential, {
      client_secret: doc(
        z.string(),
        'The secret: shown only in this answer (only a hash is kept).',
        'sk_live_8JcR2vX4mN7qT1wZ5yB3',
      ),
    }),
    { description: 'The new credential with its secret, shown once.', id: 'CreatedCredential' },
  ),
);
export const CredentialParams = /* @__PURE__ */ schema(() =>
  z.object({
    client_id: doc(
      z.string().check(z.minLength(1), z.maxLength(200)),
      'The credential id.',
      'ms_3f2b8c1e_frontdesk_q8w3e5',
    ),
  }),
);

/** A date-time with offset, or a practice-local date (a whole day: `from` its start, `to` its end). */
const AuditBound = /* @__PURE__ */ schema(() => z.union([DateTime, LocalDate]));
export const AuditQuery = /* @__PURE__ */ schema(() =>
  z.extend(PageQuery, {
    from: doc(
      z.optional(AuditBound),
      'A date-time with an offset, or a practice-local date (from its start). Default: 30 days ago.',
      '2026-11-01',
    ),
    to: doc(
      z.optional(AuditBound),
      'A date-time with an offset, or a practice-local date (to its end). Default: now.',
      '2026-11-30',
    ),
  }),
);
export const AuditEntry = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      at: Instant('When the call was made.'),
      request_id: doc(z.string(), 'The request id (`X-Request-Id`).', 'Jk6sTgWmoAMEVvA='),
      client_id: doc(
        z.nullable(z.string()),
        'The credential that called; null when unknown.',
        'ms_3f2b8c1e_frontdesk_q8w3e5',
      ),
      role: doc(z.nullable(z.string()), "The caller's role; null when unknown.", 'front_desk'),
      operation: doc(z.string(), 'The operation (operationId).', 'createAppointment'),
      method: doc(z.string(), 'HTTP method.', 'POST'),
      resource_id: doc(
        z.nullable(z.string()),
        'The resource it touched, if any.',
        'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c07',
      ),
      outcome: doc(z.string(), '`success` or the error code.', 'success'),
      status: doc(z.number().check(z.int()), 'HTTP status answered.', 201),
    }),
    { description: 'One audited call.', id: 'AuditEntry' },
  ),
);
