import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_SERVER_URL } from '../lib/docs/openapi-file';
import { buildOpenApiDocument } from '../lib/openapi/document';

/**
 * `npm run openapi [-- --server URL]`: writes the document `GET /v1/openapi.json` serves to
 * ./openapi.json. Its `servers` names URL (default the local server on $PORT, else 3000); the
 * served document names the host each request came to.
 */
const { values } = parseArgs({ options: { server: { type: 'string' } } });
const target = join(import.meta.dirname, '..', 'openapi.json');
writeFileSync(
  target,
  `${JSON.stringify(buildOpenApiDocument({ serverUrl: values.server ?? DEFAULT_SERVER_URL }), null, 2)}\n`,
);
console.log(`wrote ${target}`);
