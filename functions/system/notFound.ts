import { AppError } from '../../lib/errors';
import { httpHandler } from '../../lib/http/handler';
import * as systemRoutes from '../../lib/routes/system';

export const handler = httpHandler(systemRoutes.notFound, async ({ method, path }) => {
  throw new AppError('NOT_FOUND', `No route for ${method} ${path}`);
});
