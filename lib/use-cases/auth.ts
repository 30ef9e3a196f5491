import { randomBytes } from 'node:crypto';
import { forgetAccess } from '../auth/access';
import type { Role } from '../auth/roles';
import { DUMMY_HASH_INPUT, hashSecret, newClientSecret, verifySecret } from '../auth/secrets';
import { issueToken } from '../auth/issue';
import { TOKEN_TTL_SECONDS, type Caller } from '../auth/tokens';
import {
  findCredentialPractice,
  findOtherLiveAdmin,
  getCredential,
  publicCredential,
  putNewCredential,
  revokeAdminCredential,
  revokeCredential,
  type CredentialRecord,
} from '../db/credentials';
import type { RequestWrites } from '../db/request-writes';
import { isWellFormed } from '../domain/text';
import { AppError } from '../errors';
import { retry } from '../retry';

/** Generated client ids name their practice, so token exchange is one GetItem. */
const newClientId = (medspaId: string) => `ci_${medspaId.replace(/-/g, '')}${randomBytes(8).toString('hex')}`;

function practiceOfClientId(clientId: string): string | null {
  const match = /^ci_([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})[0-9a-f]{16}$/.exec(clientId);
  return match ? match.slice(1).join('-') : null;
}

export async function createCredential(
  medspaId: string,
  input: { name: string; role: Role; clientId?: string; clientSecret?: string },
  now: Date,
  writes?: RequestWrites,
) {
  const clientId = input.clientId ?? newClientId(medspaId);
  const clientSecret = input.clientSecret ?? newClientSecret();
  const at = now.toISOString();
  const record: CredentialRecord = {
    id: clientId,
    client_id: clientId,
    medspa_id: medspaId,
    name: input.name,
    role: input.role,
    secret_hash: hashSecret(clientSecret),
    version: 1,
    created_at: at,
    updated_at: at,
  };
  await putNewCredential(record, writes);
  return { ...publicCredential(record), client_secret: clientSecret };
}

const lastAdmin = () =>
  new AppError(
    'CONFLICT',
    "This is the practice's last active admin credential: revoking it would leave no one able to manage credentials and settings. Create another admin credential first.",
    {
      details: [{ path: 'client_id', message: 'the last active admin credential of the practice' }],
    },
  );

/**
 * Revokes a credential (idempotent). A live admin credential is revoked only while another admin
 * stays live (also when admins revoke their own): one Query finds a witness, one transaction
 * revokes on the condition that the witness is still live; a lost race looks again.
 */
export async function revoke(medspaId: string, clientId: string, now: Date, writes?: RequestWrites) {
  const at = now.toISOString();
  await retry(
    async () => {
      const current = await getCredential(medspaId, clientId);
      if (!current) throw new AppError('CREDENTIAL_NOT_FOUND');
      if (current.role !== 'admin' || current.revoked_at) {
        const revoked = await revokeCredential(medspaId, clientId, at);
        if (!revoked) throw new AppError('CREDENTIAL_NOT_FOUND');
        return { done: revoked };
      }
      const witness = await findOtherLiveAdmin(medspaId, clientId);
      if (!witness) throw lastAdmin();
      // The credential or the witness changed meanwhile: decide again on a fresh read.
      const result = await revokeAdminCredential(current, witness, at, writes);
      return result.ok ? { done: result.credential } : { retry: 'now' };
    },
    {
      attempts: 10,
      exhausted: () => {
        throw new AppError('CONFLICT', 'Admin credentials are changing concurrently; try again');
      },
    },
  );
  forgetAccess(medspaId);
  return { id: clientId, deleted: true as const };
}

export interface TokenRequestInput {
  client_id?: string;
  client_secret?: string;
  grant_type?: string;
}

/** `Authorization: Basic base64(client_id:client_secret)` (RFC 6749 2.3.1: each part form-encoded). */
export function basicCredentials(header: string | undefined): { client_id: string; client_secret: string } | null {
  const match = /^Basic\s+(.+)$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return part;
    }
  };
  return { client_id: decode(decoded.slice(0, colon)), client_secret: decode(decoded.slice(colon + 1)) };
}

/** As long as a client_id may be (the token body's limit), also when it comes in a Basic header. */
const MAX_CLIENT_ID = 200;

async function findCredential(clientId: string): Promise<CredentialRecord | null> {
  // Longer ids cannot exist: never a key lookup (a key over DynamoDB's size limit is a ValidationException).
  if (clientId.length > MAX_CLIENT_ID || !isWellFormed(clientId)) return null;
  const medspaId = practiceOfClientId(clientId) ?? (await findCredentialPractice(clientId));
  return medspaId ? getCredential(medspaId, clientId) : null;
}

export async function exchangeToken(input: TokenRequestInput, authorization: string | undefined, now: Date) {
  const basic = basicCredentials(authorization);
  const clientId = basic?.client_id ?? input.client_id;
  const clientSecret = basic?.client_secret ?? input.client_secret;
  if (!clientId || !clientSecret) {
    throw new AppError('VALIDATION_ERROR', 'client_id and client_secret are required', {
      details: [{ path: clientId ? 'client_secret' : 'client_id', message: 'required' }],
    });
  }
  const credential = await findCredential(clientId);
  // Hash even when the id is unknown, so response time does not reveal which ids exist.
  const secretMatches = await verifySecret(clientSecret, credential?.secret_hash ?? hashSecret(DUMMY_HASH_INPUT));
  if (!credential || !secretMatches || credential.revoked_at) throw new AppError('INVALID_CLIENT');
  const caller: Caller = { medspaId: credential.medspa_id, clientId: credential.client_id, role: credential.role };
  return {
    access_token: await issueToken(caller, now),
    token_type: 'Bearer' as const,
    expires_in: TOKEN_TTL_SECONDS,
    scope: credential.role,
  };
}
