import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BUNDLE_ALIASES } from '../../infra/constructs/bundling';
import { ReadableStream } from '../../infra/constructs/web-streams';

/** The function bundles' stand-in for `node:stream/web` (infra/constructs/bundling.ts). */
describe('web streams in function bundles', () => {
  it('replace node:stream/web when bundling', () => {
    expect(BUNDLE_ALIASES['node:stream/web']).toBe('infra/constructs/web-streams.ts');
  });

  it("answer @middy/core's one question as Node's class does: is this body a web stream?", () => {
    expect(new globalThis.ReadableStream() instanceof ReadableStream).toBe(true);
    expect(Readable.toWeb(Readable.from(['a'])) instanceof ReadableStream).toBe(true);
    for (const body of ['text', Buffer.from('x'), Readable.from(['a']), { getReader: () => undefined }, null, undefined]) expect(body instanceof ReadableStream).toBe(false);
  });
});
