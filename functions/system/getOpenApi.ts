import { openApiHandler } from '../../lib/docs/openapi-handler';
import * as systemRoutes from '../../lib/routes/system';

export const handler = openApiHandler(systemRoutes.getOpenApi);
