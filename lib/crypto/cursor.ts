import { createHash } from 'node:crypto';
import { clock } from '../clock';
import { config } from '../config';
import { AppError } from '../errors';
import { open, seal } from './sealed';

/**
 * Pagination cursors are sealed tokens (./sealed.ts, docs/decisions/0007-sealed-cursors.md) bound
 * to the practice, the list and the list's filters, accepted until CURSOR_TTL_SECONDS.
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
  return {
    medspaId,
    list,
    filters: createHash('sha256')
      .update(JSON.stringify(canonical(filters)))
      .digest('base64url'),
  };
}

/** The page request of a list call: `limit` and `cursor` from the query, everything else in it is a filter the cursor is bound to. */
export function pageRequest(
  medspaId: string,
  list: string,
  query: { limit: number; cursor?: string } & KeyMap,
): PageRequest {
  const { limit, cursor, ...filters } = query;
  return { limit, cursor, scope: cursorScope(medspaId, list, filters) };
}

/** Bound to the practice, the list and its filters (the sealed layout's additional data). */
const bindings = (scope: CursorScope) => [scope.medspaId, scope.list, scope.filters];
const PURPOSE = 'medspa-cursor';

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

/** Seals a list position (any JSON) for this scope, with the current key, valid CURSOR_TTL_SECONDS unless the list says otherwise (the event feed's 30 days). */
export const sealCursor = (scope: CursorScope, position: unknown, ttlSeconds = config().CURSOR_TTL_SECONDS): string =>
  seal(PURPOSE, bindings(scope), position, nowSeconds() + ttlSeconds);

/**
 * The position sealed in a cursor of this scope, or undefined without a cursor. Every key of
 * CURSOR_SECRET is tried (current first), so cursors handed out before a rotation keep working
 * while the previous secret is still listed. A position `isValid` refuses is an invalid cursor too.
 */
export function openCursor(
  scope: CursorScope,
  text: string | undefined,
  isValid: (position: unknown) => boolean = () => true,
): unknown {
  if (!text) return undefined;
  const opened = open(PURPOSE, bindings(scope), text, nowSeconds());
  if (!opened.ok) throw opened.reason === 'expired' ? expiredCursor() : invalidCursor();
  if (!isValid(opened.payload)) throw invalidCursor();
  return opened.payload;
}
