import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApiDocument } from '../lib/openapi/document';

/** `npm run openapi`: writes the document `GET /openapi.json` serves to ./openapi.json. */
const target = join(import.meta.dirname, '..', 'openapi.json');
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.log(`wrote ${target}`);
