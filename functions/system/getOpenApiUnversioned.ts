import { openApiHandler } from '../../lib/docs/openapi-handler';
import * as systemRoutes from '../../lib/routes/system';

/** `/openapi.json`, kept for existing links: the same document as `/v1/openapi.json`. */
export const handler = openApiHandler(systemRoutes.getOpenApiUnversioned);
