/**
 * Stands in for `node:stream/web` in function bundles (the esbuild alias in ./bundling.ts).
 * @middy/core imports `ReadableStream` from it only to test, with `instanceof`, whether a
 * streamed response's body is a web stream; we never stream responses. Importing the module
 * loads Node's whole web-streams implementation at import, about 6 ms of every cold start here
 * (about three times that at Lambda's third of a vCPU). `globalThis.ReadableStream` is the same
 * class, loaded by Node only when first read, so the test reads it only when it runs.
 */
export class ReadableStream {
  static [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof globalThis.ReadableStream;
  }
}
