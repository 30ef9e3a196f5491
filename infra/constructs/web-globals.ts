import { Stream } from 'node:stream';

/**
 * `ReadableStream` and `Blob` for function bundles: esbuild injects these in place of the free
 * globals (`inject` in ./bundling.ts), and `node:stream/web` is aliased to this module. Node
 * defines both globals lazily, and the first read of either loads its web-streams implementation:
 * about 6 ms of a cold start here (median of 40 paired cold starts of the one-GetItem function),
 * about three times that at Lambda's third of a vCPU. Nothing we run needs it:
 * - the AWS SDK asks of every response body it collects `typeof ReadableStream === 'function'`,
 *   then whether it is a Blob or a web stream (@smithy/core's stream-type-check); on Node the
 *   body is a Node stream;
 * - the SDK's retry step asks whether a failed request's body (a string) is a web stream;
 * - @middy/core imports `ReadableStream` from node:stream/web only to test a streamed response,
 *   and we stream none.
 * Each stand-in answers `typeof`, `name` and `instanceof` without Node's class for a value that
 * cannot be an instance (a primitive, a Node stream, bytes), and hands everything else
 * (construction, statics, the prototype, `instanceof` of any other object) to the real global
 * when it is asked.
 */
type Global = 'ReadableStream' | 'Blob';

const neverAnInstance = (value: unknown) =>
  (typeof value !== 'object' && typeof value !== 'function') ||
  value === null ||
  value instanceof Stream ||
  ArrayBuffer.isView(value);

function lazyGlobal<N extends Global>(name: N): (typeof globalThis)[N] {
  const real = () => globalThis[name] as unknown as new (...args: unknown[]) => object;
  const standIn: object = new Proxy(function standInTarget() {}, {
    get: (_, key) => {
      if (key === 'name') return name;
      if (key === Symbol.hasInstance) return (value: unknown) => !neverAnInstance(value) && value instanceof real();
      return Reflect.get(real(), key);
    },
    construct: (_, args, newTarget) => Reflect.construct(real(), args, newTarget === standIn ? real() : newTarget),
    apply: (_, self, args) => Reflect.apply(real(), self, args),
  });
  return standIn as (typeof globalThis)[N];
}

const LazyReadableStream = lazyGlobal('ReadableStream');
const LazyBlob = lazyGlobal('Blob');
export { LazyReadableStream as ReadableStream, LazyBlob as Blob };
