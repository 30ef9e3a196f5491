import { BoundedCache } from '../cache';
import { generatedFileBeside } from '../http/files-beside';
import { tablelessHandler, type TablelessRoute } from '../http/tableless-handler';
import { PrebuiltAnswer } from '../http/prebuilt';
import { documentServer, documentTemplate, OPENAPI_FILE } from './openapi-file';

/**
 * The handler of both OpenAPI routes (here, not in one of their modules, so each function's bundle
 * keeps only its own row). The document is rendered at build time into a file beside the bundle
 * (the rows' generated `filesBeside`), read once per container; each request fills in its own
 * server. Kept per server (a container answers for a host or two) with its gzip, so a repeat
 * costs nothing.
 */
let template: Promise<ReturnType<typeof documentTemplate>> | undefined;
const answers = new BoundedCache<string, PrebuiltAnswer>({ max: 8 });

export const openApiHandler = (route: TablelessRoute) =>
  tablelessHandler(route, async ({ headers }) => {
    template ??= generatedFileBeside(OPENAPI_FILE, 'openapi').then(documentTemplate);
    const server = documentServer(headers);
    const key = `${server.url} ${server.description}`;
    let answer = answers.get(key);
    if (!answer) {
      answer = new PrebuiltAnswer((await template)(server));
      answers.set(key, answer);
    }
    return { data: answer, headers: { 'cache-control': 'public, max-age=300', vary: 'Host, X-Forwarded-Proto' } };
  });
