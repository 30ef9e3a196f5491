import { serverUrlOf } from '../http/server-url';

/**
 * The OpenAPI document as its functions serve it: a file beside their bundle (the route rows'
 * generated `filesBeside`), rendered at build time by infra/generated-files.ts with marks where the
 * server a request came to goes (`servers`, the OAuth token URL). Filling the marks is string work:
 * no JSON.parse and JSON.stringify of 1.19 MB per request.
 */
export const OPENAPI_FILE = 'openapi.json';

/** The local server's address, named when the document is built without a request (`npm run openapi`) or one has no usable Host. */
export const DEFAULT_SERVER_URL = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

/** How the document's `servers` describes the server it names. */
export const SERVER_DESCRIPTIONS = {
  request: 'The server that answered this request',
  local: 'The local server (npm start)',
} as const;

export interface DocumentServer {
  url: string;
  description: string;
}

/** The server the document served to a request names: the request's own, else the local server. */
export function documentServer(headers: Record<string, string | undefined>): DocumentServer {
  const url = serverUrlOf(headers);
  return url
    ? { url, description: SERVER_DESCRIPTIONS.request }
    : { url: DEFAULT_SERVER_URL, description: SERVER_DESCRIPTIONS.local };
}

/** What the file has in place of the request's server; nothing else in the document looks like them. */
export const SERVER_MARKS = { url: '{{server.url}}', description: '{{server.description}}' } as const;

const MARK = /(\{\{server\.(?:url|description)\}\})/;

/** A JSON string's content (the marks sit inside strings). */
const inString = (value: string) => JSON.stringify(value).slice(1, -1);

/** The file's text cut at its marks once; each server's document is then one join. */
export function documentTemplate(text: string): (server: DocumentServer) => string {
  const pieces = text.split(MARK);
  return (server) =>
    pieces
      .map((piece, i) => (i % 2 === 0 ? piece : inString(piece === SERVER_MARKS.url ? server.url : server.description)))
      .join('');
}
