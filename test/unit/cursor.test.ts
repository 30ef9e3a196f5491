import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setClock } from '../../lib/clock';
import { config } from '../../lib/config';
import { resetSecretKeys } from '../../lib/crypto/named-secret';
import { cursorScope, openCursor, pageRequest, sealCursor, type CursorScope } from '../../lib/crypto/cursor';
import { AppError } from '../../lib/errors';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The error `open` throws: 400 VALIDATION_ERROR naming `cursor`. */
function refusal(open: () => unknown): AppError {
  try {
    open();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    const appError = error as AppError;
    expect({ status: appError.status, code: appError.code, paths: appError.details?.map((d) => d.path) }).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      paths: ['cursor'],
    });
    return appError;
  }
  throw new Error('the cursor was accepted');
}

describe('sealed cursors', () => {
  const scope: CursorScope = cursorScope('practice-a', 'providers', { category: 'laser' });
  const position = { pk: 'P#practice-a#PROVIDER', sk: '0b7c…' };

  beforeEach(() => {
    process.env.CURSOR_SECRET = 'unit-test-secret';
    resetSecretKeys();
  });

  afterEach(() => {
    delete process.env.CURSOR_SECRET;
    resetSecretKeys();
    setClock(null);
  });

  it('opens to the sealed position for its scope; no cursor is the first page', () => {
    expect(openCursor(scope, sealCursor(scope, position))).toEqual(position);
    expect(openCursor(scope, undefined)).toBeUndefined();
    expect(openCursor(scope, '')).toBeUndefined();
  });

  it('seals the same position differently each time (random IV)', () => {
    expect(sealCursor(scope, position)).not.toBe(sealCursor(scope, position));
  });

  it('refuses every one-character change, at every position', () => {
    const cursor = sealCursor(scope, position);
    for (let index = 0; index < cursor.length; index += 1) {
      for (const replacement of [
        BASE64URL[(BASE64URL.indexOf(cursor[index]) + 1) % 64],
        BASE64URL[(BASE64URL.indexOf(cursor[index]) + 32) % 64],
      ]) {
        refusal(() => openCursor(scope, `${cursor.slice(0, index)}${replacement}${cursor.slice(index + 1)}`));
      }
    }
  });

  it('refuses every one-bit change of every byte, and truncation or extension', () => {
    const bytes = Buffer.from(sealCursor(scope, position), 'base64url');
    for (let index = 0; index < bytes.length; index += 1) {
      const altered = Buffer.from(bytes);
      altered[index] ^= 0x80;
      refusal(() => openCursor(scope, altered.toString('base64url')));
    }
    refusal(() => openCursor(scope, bytes.subarray(0, bytes.length - 1).toString('base64url')));
    refusal(() => openCursor(scope, Buffer.concat([bytes, Buffer.from([0])]).toString('base64url')));
    refusal(() => openCursor(scope, 'not a cursor'));
    refusal(() => openCursor(scope, 'AAAA'));
  });

  it('refuses a cursor of another practice, list or filter set', () => {
    const cursor = sealCursor(scope, position);
    refusal(() => openCursor(cursorScope('practice-b', 'providers', { category: 'laser' }), cursor));
    refusal(() => openCursor(cursorScope('practice-a', 'rooms', { category: 'laser' }), cursor));
    refusal(() => openCursor(cursorScope('practice-a', 'providers', { category: 'injectables' }), cursor));
    refusal(() => openCursor(cursorScope('practice-a', 'providers'), cursor));
  });

  it('binds the filters, not their spelling: key order, undefined values, limit and cursor do not count', () => {
    const a = pageRequest('m', 'payments', {
      limit: 10,
      cursor: 'x',
      from: '2020-01-01',
      client_id: undefined,
      to: '2020-01-31',
    });
    const b = pageRequest('m', 'payments', { to: '2020-01-31', limit: 50, from: '2020-01-01' });
    expect(a.scope).toEqual(b.scope);
    expect(a).toMatchObject({ limit: 10, cursor: 'x' });
    expect(pageRequest('m', 'payments', { limit: 10, from: '2020-01-02' }).scope).not.toEqual(a.scope);
  });

  it('expires CURSOR_TTL_SECONDS after it was handed out', () => {
    const handedOut = new Date();
    setClock(handedOut);
    const cursor = sealCursor(scope, position);
    const ttlMs = config().CURSOR_TTL_SECONDS * 1000;
    setClock(new Date(handedOut.getTime() + ttlMs - 1000));
    expect(openCursor(scope, cursor)).toEqual(position);
    setClock(new Date(handedOut.getTime() + ttlMs));
    expect(refusal(() => openCursor(scope, cursor)).message).toMatch(/expired/);
  });

  it('opens cursors of every listed key (current first); sealing uses the current one', () => {
    process.env.CURSOR_SECRET = 'old';
    resetSecretKeys();
    const old = sealCursor(scope, position);

    process.env.CURSOR_SECRET = 'new, old';
    resetSecretKeys();
    expect(openCursor(scope, old)).toEqual(position);
    const fresh = sealCursor(scope, position);

    process.env.CURSOR_SECRET = 'new';
    resetSecretKeys();
    expect(openCursor(scope, fresh)).toEqual(position);
    refusal(() => openCursor(scope, old));
  });
});
