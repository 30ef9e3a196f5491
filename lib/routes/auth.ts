import * as z from '../schemas/zod';
import { ALLOW } from '../auth/roles';
import { defineRoutes, route, list } from '../http/route';
import * as auth from '../schemas/auth';
import { Deleted, doc, PageQuery } from '../schemas/common';
import * as practice from '../schemas/practice';
import * as keys from '../schemas/publishable-keys';

export const getHealth = /* @__PURE__ */ route('getHealth', () => ({
  method: 'GET',
  path: '/health',
  group: 'system',
  summary: 'Liveness check',
  auth: 'public',
  envelope: false,
  touches: { table: false },
  response: doc(z.object({ status: doc(z.literal('ok'), 'Always ok: the server can take requests.') }), 'Liveness.'),
}));

export const getJwks = /* @__PURE__ */ route('getJwks', () => ({
  method: 'GET',
  path: '/.well-known/jwks.json',
  group: 'auth',
  summary: 'Public keys that verify access tokens',
  auth: 'public',
  envelope: false,
  touches: { table: false, tokenKey: 'verify' },
  response: auth.Jwks,
}));

export const createToken = /* @__PURE__ */ route('createToken', () => ({
  method: 'POST',
  path: '/v1/auth/token',
  group: 'auth',
  successStatus: 200,
  summary: 'Exchange client credentials for an access token',
  auth: 'public',
  envelope: false,
  acceptsForm: true,
  body: auth.TokenRequest,
  response: auth.TokenResponse,
  basicAuth: true,
  errors: ['INVALID_CLIENT', 'UNAUTHORIZED'],
  origins: 'same',
  limitPerIp: true,
  reads: ['credentialLookup', 'credentials'],
}));

export const createCredential = /* @__PURE__ */ route('createCredential', () => ({
  method: 'POST',
  path: '/v1/credentials',
  group: 'auth',
  summary: 'Create an API credential (secret shown once)',
  auth: ALLOW.adminOnly,
  body: auth.CreateCredentialBody,
  response: auth.CreatedCredential,
  writes: { credentials: ['put'] },
  reads: [],
}));

export const listCredentials = /* @__PURE__ */ route('listCredentials', () => ({
  method: 'GET',
  path: '/v1/credentials',
  group: 'auth',
  summary: 'List API credentials',
  auth: ALLOW.adminOnly,
  query: PageQuery,
  response: list(auth.Credential),
  reads: [],
}));

export const revokeCredential = /* @__PURE__ */ route('revokeCredential', () => ({
  method: 'DELETE',
  path: '/v1/credentials/{client_id}',
  group: 'auth',
  summary: 'Revoke an API credential',
  auth: ALLOW.adminOnly,
  params: auth.CredentialParams,
  response: Deleted,
  ifMatch: false,
  errors: ['CREDENTIAL_NOT_FOUND', 'CONFLICT'],
  writes: { credentials: ['check', 'update'] },
  reads: [],
}));

export const createPublishableKey = /* @__PURE__ */ route('createPublishableKey', () => ({
  method: 'POST',
  path: '/v1/publishable-keys',
  group: 'auth',
  summary: 'Create a publishable key for online booking from browsers',
  auth: ALLOW.adminOnly,
  body: keys.CreatePublishableKeyBody,
  response: keys.PublishableKey,
  writes: { publishableKeys: ['put'] },
  reads: [],
}));

export const listPublishableKeys = /* @__PURE__ */ route('listPublishableKeys', () => ({
  method: 'GET',
  path: '/v1/publishable-keys',
  group: 'auth',
  summary: 'List publishable keys',
  auth: ALLOW.adminOnly,
  query: PageQuery,
  response: list(keys.PublishableKey),
  reads: ['publishableKeys'],
}));

export const getPublishableKey = /* @__PURE__ */ route('getPublishableKey', () => ({
  method: 'GET',
  path: '/v1/publishable-keys/{id}',
  group: 'auth',
  summary: 'A publishable key, with its version (for If-Match) and rate limits',
  auth: ALLOW.adminOnly,
  params: keys.PublishableKeyParams,
  response: keys.PublishableKey,
  errors: ['PUBLISHABLE_KEY_NOT_FOUND'],
  reads: ['publishableKeys'],
}));

export const updatePublishableKey = /* @__PURE__ */ route('updatePublishableKey', () => ({
  method: 'PATCH',
  path: '/v1/publishable-keys/{id}',
  group: 'auth',
  summary: 'Change a publishable key: its name, allowed origins or rate limits (on every server within 60 s)',
  auth: ALLOW.adminOnly,
  params: keys.PublishableKeyParams,
  body: keys.UpdatePublishableKeyBody,
  response: keys.PublishableKey,
  errors: ['PUBLISHABLE_KEY_NOT_FOUND'],
  writes: { publishableKeys: ['update'] },
  reads: ['publishableKeys'],
}));

export const deletePublishableKey = /* @__PURE__ */ route('deletePublishableKey', () => ({
  method: 'DELETE',
  path: '/v1/publishable-keys/{id}',
  group: 'auth',
  summary: 'Delete a publishable key (refused everywhere within 60 s)',
  auth: ALLOW.adminOnly,
  params: keys.PublishableKeyParams,
  response: Deleted,
  ifMatch: false,
  errors: ['PUBLISHABLE_KEY_NOT_FOUND'],
  writes: { publishableKeys: ['delete'] },
  reads: [],
}));

export const getAuditLog = /* @__PURE__ */ route('getAuditLog', () => ({
  method: 'GET',
  path: '/v1/audit-log',
  group: 'auth',
  summary: 'Changes and denied calls, newest first',
  auth: ALLOW.adminOnly,
  query: auth.AuditQuery,
  response: list(auth.AuditEntry),
  reads: ['audit'],
}));

export const getPractice = /* @__PURE__ */ route('getPractice', () => ({
  method: 'GET',
  path: '/v1/practice',
  group: 'practice',
  summary: "The caller's practice",
  auth: ALLOW.everyone,
  allowWaitlisted: true,
  response: practice.Practice,
  reads: [],
}));

export const updatePractice = /* @__PURE__ */ route('updatePractice', () => ({
  method: 'PATCH',
  path: '/v1/practice',
  group: 'practice',
  summary: 'Change practice settings',
  auth: ALLOW.adminOnly,
  body: practice.UpdatePracticeBody,
  response: practice.Practice,
  writes: { practice: ['update'] },
  reads: [],
}));

/** Health, keys, tokens, credentials, audit log and practice settings and publishable keys (API reference, authentication and access; online booking). */
export const authRoutes = /* @__PURE__ */ defineRoutes({
  getHealth,
  getJwks,
  createToken,
  createCredential,
  listCredentials,
  revokeCredential,
  createPublishableKey,
  listPublishableKeys,
  getPublishableKey,
  updatePublishableKey,
  deletePublishableKey,
  getAuditLog,
  getPractice,
  updatePractice,
});
