import { AppError } from '../../lib/errors';
import { httpHandler } from '../../lib/http/handler';

export const handler = httpHandler('notFound', async ({ method, path }) => {
  throw new AppError('NOT_FOUND', `No route for ${method} ${path}`);
});
