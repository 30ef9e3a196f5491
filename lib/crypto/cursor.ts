import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { clock } from '../clock';
import { config } from '../config';
import { AppError } from '../errors';
import { secretKeys } from './named-secret';

/**
 * Pagination cursors are sealed (AES-256-GCM, key from `secretKeys('cursor')`): opaque to callers,
 * and any change to one fails authentication. Each is bound, as GCM additional data, to the
 * practice, the list and the list's filters it was handed out for, and carries an expiry inside
 * the ciphertext; it is accepted for that list page only until then (CURSOR_TTL_SECONDS).
 *
 * Layout (base64url): version (1 byte) | IV (12) | ciphertext | tag (16). IVs are random: with
 * 96-bit random IVs a key should seal fewer than 2^32 cursors (NIST SP 800-38D), far above our
 * volume; rotating CURSOR_SECRET resets the count.
 *
 * A cursor is the API's token, so one that does not open is the request's fault (400), whichever
 * layer opens it: the data layer opens its start keys here, with its own check of their shape.
 */

/** What a cursor is bound to: the list of one practice, with one set of filters. */
export interface CursorScope {
  medspaId: string;
  /** The list's identity, e.g. `appointments`, `client-search`. */
  list: string;
  /** A digest of the list's normalised filters: the validated query without `cursor` and `limit`, plus path ids. */
  filters: string;
}

/** One page of a list, as a use case asks the data layer for it. */
export interface PageRequest {
  limit: number;
  cursor?: string;
  scope: CursorScope;
}

type KeyMap = Record<string, unknown>;

const FORMAT_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Object keys sorted and undefined values dropped, so equal filters digest equally. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .filter((key) => (value as KeyMap)[key] !== undefined)
        .map((key) => [key, canonical((value as KeyMap)[key])]),
    );
  }
  return value;
}

export function cursorScope(medspaId: string, list: string, filters: KeyMap = {}): CursorScope {
  return { medspaId, list, filters: createHash('sha256').update(JSON.stringify(canonical(filters))).digest('base64url') };
}

/** The page request of a list call: `limit` and `cursor` from the query, everything else in it is a filter the cursor is bound to. */
export function pageRequest(medspaId: string, list: string, query: { limit: number; cursor?: string } & KeyMap): PageRequest {
  const { limit, cursor, ...filters } = query;
  return { limit, cursor, scope: cursorScope(medspaId, list, filters) };
}

const boundTo = (scope: CursorScope) => Buffer.from(JSON.stringify(['medspa-cursor', FORMAT_VERSION, scope.medspaId, scope.list, scope.filters]));

const nowSeconds = () => Math.floor(clock().now().getTime() / 1000);

/** 400 VALIDATION_ERROR naming `cursor`: altered, foreign, from another list or filter set, or malformed. */
const invalidCursor = () =>
  new AppError('VALIDATION_ERROR', 'The cursor is not valid', {
    details: [{ path: 'cursor', message: 'not a cursor from this list with these filters' }],
  });

const expiredCursor = () =>
  new AppError('VALIDATION_ERROR', 'The cursor has expired', {
    details: [{ path: 'cursor', message: 'expired: start the list again without a cursor' }],
  });

/** Seals a list position (any JSON) for this scope, with the current key. */
export function sealCursor(scope: CursorScope, position: unknown): string {
  const [key] = secretKeys('cursor');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(boundTo(scope));
  const plaintext = JSON.stringify({ exp: nowSeconds() + config().CURSOR_TTL_SECONDS, at: position });
  const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([FORMAT_VERSION]), iv, sealed, cipher.getAuthTag()]).toString('base64url');
}

/** Only the canonical encoding: otherwise a changed padding character could decode to the same bytes. */
function decodeExact(text: string): Buffer | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : null;
}

function tryOpen(key: Buffer, scope: CursorScope, iv: Buffer, ciphertext: Buffer, tag: Buffer): string | null {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(boundTo(scope));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/**
 * The position sealed in a cursor of this scope, or undefined without a cursor. Every key of
 * CURSOR_SECRET is tried (current first), so cursors handed out before a rotation keep working
 * while the previous secret is still listed. A position `isValid` refuses is an invalid cursor too.
 */
export function openCursor(scope: CursorScope, text: string | undefined, isValid: (position: unknown) => boolean = () => true): unknown {
  if (!text) return undefined;
  const bytes = decodeExact(text);
  if (!bytes || bytes.length <= 1 + IV_BYTES + TAG_BYTES || bytes[0] !== FORMAT_VERSION) throw invalidCursor();
  const iv = bytes.subarray(1, 1 + IV_BYTES);
  const ciphertext = bytes.subarray(1 + IV_BYTES, bytes.length - TAG_BYTES);
  const tag = bytes.subarray(bytes.length - TAG_BYTES);
  let plaintext: string | null = null;
  for (const key of secretKeys('cursor')) {
    plaintext = tryOpen(key, scope, iv, ciphertext, tag);
    if (plaintext !== null) break;
  }
  if (plaintext === null) throw invalidCursor();
  let sealed: { exp?: unknown; at?: unknown };
  try {
    sealed = JSON.parse(plaintext);
  } catch {
    throw invalidCursor();
  }
  const { exp, at } = sealed;
  if (typeof exp !== 'number' || nowSeconds() >= exp) throw expiredCursor();
  if (!isValid(at)) throw invalidCursor();
  return at;
}
