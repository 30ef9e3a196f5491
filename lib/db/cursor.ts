import { isWellFormed } from '../domain/text';
import { AppError } from '../errors';

type KeyMap = Record<string, unknown>;

/** DynamoDB's limit on a sort key value (partition keys may take 2048; ours never come near either). */
const MAX_KEY_BYTES = 1024;

/** Opaque to callers: the LastEvaluatedKey, base64url JSON. */
export const encodeCursor = (key: KeyMap | undefined): string | null =>
  key ? Buffer.from(JSON.stringify(key)).toString('base64url') : null;

/**
 * A cursor is only accepted for the partition it came from, so a crafted cursor cannot point a
 * query into another practice (the Query's own key condition would reject it, but as a 500).
 */
export function decodeCursor(cursor: string | undefined, expected: KeyMap, keyNames?: readonly string[]): KeyMap | undefined {
  if (!cursor) return undefined;
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  const valid =
    typeof key === 'object' &&
    key !== null &&
    Object.entries(expected).every(([name, value]) => (key as KeyMap)[name] === value) &&
    // Strings DynamoDB takes as key values: well-formed Unicode within its key size limits (a
    // forged cursor must be a 400 here, not a ValidationException from DynamoDB).
    Object.values(key).every((value) => typeof value === 'string' && isWellFormed(value) && Buffer.byteLength(value) <= MAX_KEY_BYTES) &&
    // A start key must name exactly the table's (and index's) key attributes, or DynamoDB rejects it.
    (!keyNames || [...Object.keys(key)].sort().join() === [...keyNames].sort().join());
  if (!valid) throw new AppError('VALIDATION_ERROR', 'The cursor is not valid', { details: [{ path: 'cursor', message: 'not a cursor from this list' }] });
  return key as KeyMap;
}

/** The attributes of a start key: the table's keys, plus the index's when reading one. */
export const startKeyNames = (index?: string) => (index ? ['pk', 'sk', `${index}pk`, `${index}sk`] : ['pk', 'sk']);
