import { AppError } from '../errors';
import { edgeRequired, viaEdge } from './client-ip';
import type { ApiMiddleware } from './types';

/**
 * With the stage's edge on (ORIGIN_VERIFY_SECRET set), a request that did not come through its
 * CloudFront distribution went around the WAF (straight to the execute-api endpoint): refused
 * before any other work. Locally, and with the edge off, nothing is checked.
 */
export const edgeOnly = (): ApiMiddleware => ({
  before: async (request) => {
    if (edgeRequired() && !viaEdge(request.event.headers))
      throw new AppError('FORBIDDEN', 'Call the API at its public URL');
  },
});
