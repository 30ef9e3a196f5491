import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BUNDLE_ALIASES, WEB_GLOBALS, esbuildOptions, lambdaBundling } from '../../infra/constructs/bundling';
import { Blob, ReadableStream } from '../../infra/constructs/web-globals';

/**
 * The function bundles' stand-ins for the `ReadableStream` and `Blob` globals (infra/constructs/
 * web-globals.ts): they answer as Node's classes do. That a built bundle's DynamoDB call no
 * longer loads Node's web streams is test/integration/cold-start-modules.test.ts.
 */
describe('the web globals in function bundles', () => {
  it('are injected, and stand in for node:stream/web, in both builds (the CDK construct and the API)', () => {
    expect(BUNDLE_ALIASES['node:stream/web']).toBe(WEB_GLOBALS);
    expect(lambdaBundling('/root').inject).toEqual([`/root/${WEB_GLOBALS}`]);
    expect(esbuildOptions('/root', {}, '/out').inject).toEqual([`/root/${WEB_GLOBALS}`]);
  });

  it('answer typeof and name as the classes do', () => {
    expect(typeof ReadableStream).toBe('function');
    expect(typeof Blob).toBe('function');
    expect(ReadableStream.name).toBe(globalThis.ReadableStream.name);
    expect(Blob.name).toBe(globalThis.Blob.name);
  });

  it('answer instanceof as the classes do', () => {
    const webStream = Readable.toWeb(Readable.from(['a']));
    expect(new globalThis.ReadableStream() instanceof ReadableStream).toBe(true);
    expect(webStream instanceof ReadableStream).toBe(true);
    expect(new globalThis.Blob(['x']) instanceof Blob).toBe(true);
    expect(new File(['x'], 'x.txt') instanceof Blob).toBe(true);
    for (const value of [
      'text',
      Buffer.from('x'),
      new Uint8Array(1),
      Readable.from(['a']),
      { getReader: () => undefined },
      null,
      undefined,
    ]) {
      expect(value instanceof ReadableStream).toBe(false);
      expect(value instanceof Blob).toBe(false);
    }
    expect(webStream instanceof Blob).toBe(false);
  });

  it('construct, extend and lend their statics and prototype as the classes do', async () => {
    const stream = new ReadableStream({ start: (controller) => (controller.enqueue('a'), controller.close()) });
    expect(stream).toBeInstanceOf(globalThis.ReadableStream);
    expect((await stream.getReader().read()).value).toBe('a');
    expect(await new Blob(['xyz']).text()).toBe('xyz');
    class Counted extends (ReadableStream as new () => object) {}
    const counted = new Counted();
    expect(counted).toBeInstanceOf(Counted);
    expect(counted).toBeInstanceOf(globalThis.ReadableStream);
    expect(ReadableStream.prototype).toBe(globalThis.ReadableStream.prototype);
    const from = (stand: object) => (stand as { from: unknown }).from;
    expect(from(ReadableStream)).toBe(from(globalThis.ReadableStream));
    expect(() => (ReadableStream as unknown as () => void)()).toThrow(TypeError);
  });
});
