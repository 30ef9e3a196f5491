import { AppError } from '../../lib/errors';
import { tablelessHandler } from '../../lib/http/tableless-handler';
import * as systemRoutes from '../../lib/routes/system';

export const handler = tablelessHandler(systemRoutes.notFound, async ({ method, path }) => {
  throw new AppError('NOT_FOUND', `No route for ${method} ${path}`);
});
