import { corsPreflightHeaders } from '../../lib/domain/cors';
import { AppError } from '../../lib/errors';
import { tablelessHandler } from '../../lib/http/tableless-handler';
import { methodsOfPath } from '../../lib/routes/methods';
import * as systemRoutes from '../../lib/routes/system';

/**
 * A CORS preflight (API reference, online booking and CORS): 204 with the path's methods for any
 * origin, since it cannot know the practice; the actual request is judged by its own origin.
 */
export const handler = tablelessHandler(systemRoutes.preflight, async ({ headers, path }) => {
  const methods = methodsOfPath(path);
  if (methods.length === 0) throw new AppError('NOT_FOUND');
  return { status: 204, data: undefined, headers: corsPreflightHeaders(headers.origin, methods) };
});
