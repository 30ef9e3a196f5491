import { assertAccess } from '../auth/access';
import { verifyToken } from '../auth/tokens';
import { AppError } from '../errors';
import type { ApiMiddleware } from './types';

/** Bearer token, practice access gate, then the route's roles. Runs before the body is read: an unauthenticated caller learns nothing from it. */
export const auth = (): ApiMiddleware => ({
  before: async (request) => {
    const { route } = request.internal;
    if (route.auth === 'public') return;
    const match = /^Bearer\s+(\S+)$/i.exec(request.event.headers?.authorization ?? '');
    if (!match) throw new AppError('UNAUTHORIZED');
    const caller = await verifyToken(match[1]);
    request.internal.caller = caller;
    // The credential check and the work other middlewares hang on the caller (the rate-limit
    // bucket) overlap: one round trip of latency, not two. The credential's verdict comes first.
    const [access, ...others] = await Promise.allSettled([
      assertAccess(caller, { allowWaitlisted: route.allowWaitlisted ?? false }),
      ...request.internal.onAuthenticated.map((work) => work(caller)),
    ]);
    if (access.status === 'rejected') throw access.reason;
    if (!route.auth.includes(caller.role)) throw new AppError('FORBIDDEN');
    const failed = others.find((outcome) => outcome.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  },
});
