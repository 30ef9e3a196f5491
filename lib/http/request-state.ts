import { randomUUID } from 'node:crypto';
import { clock } from '../clock';
import { RequestWrites } from '../db/request-writes';
import type { RouteDef } from './route';
import type { ApiMiddleware } from './types';

/** Starts the invocation's shared state: request id, the one `now`, path parameters, request writes. */
export const requestState = (route: RouteDef & { operation: string }): ApiMiddleware => ({
  before: async (request) => {
    const params = (request.event.pathParameters ?? {}) as Record<string, string | undefined>;
    Object.assign(request.internal, {
      route,
      requestId: request.event.requestContext?.requestId ?? randomUUID(),
      now: clock().now(),
      caller: null,
      params,
      // The record a path names (a credential by client_id, a public booking by appointment_id, a public hold by hold_id).
      resourceId: params.id ?? params.client_id ?? params.appointment_id ?? params.hold_id ?? null,
      writes: new RequestWrites(),
      onAuthenticated: [],
      holdReads: [],
      beforeIdentified: [],
      onUnknownKey: [],
      onRefusedOrigin: [],
      extraHeaders: {},
    });
  },
});
