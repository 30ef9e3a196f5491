import { isDataFailure } from '../db/failure';
import { AppError, isAppError } from '../errors';
import { logger } from '../log';
import { dataFailureError } from '../use-cases/failures';
import { json, type ApiMiddleware, type ApiResponse } from './types';

/** The one mapper from errors to HTTP: AppErrors answer their code; anything else is a logged 500 with no details. */
export function errorResponse(error: unknown, requestId: string, operation: string): ApiResponse {
  const appError = isAppError(error) ? error : null;
  if (!appError)
    logger.error('unhandled error', {
      operation,
      requestId,
      error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error),
    });
  const failure = appError ?? new AppError('INTERNAL_ERROR');
  return json(
    failure.status,
    {
      success: false,
      error: {
        code: failure.code,
        message: failure.message,
        ...(failure.details ? { details: failure.details } : {}),
        request_id: requestId,
      },
    },
    {
      ...failure.headers,
      ...(failure.code === 'UNAUTHORIZED' ? { 'www-authenticate': 'Bearer' } : {}),
      'x-request-id': requestId,
    },
  );
}

export const errors = (): ApiMiddleware => ({
  onError: async (request) => {
    // While reads overlap the caller's gate, any error waits for its verdict, and a refusal wins:
    // the caller learns nothing (not even a bad query) before it is admitted.
    await request.internal.gate?.catch((refusal: unknown) => {
      request.error = refusal as Error;
    });
    // A data-layer failure with an answer is that AppError from here on (the audit entry records its code).
    if (isDataFailure(request.error)) request.error = dataFailureError(request.error) ?? request.error;
    request.response = errorResponse(request.error, request.internal.requestId, request.internal.route.operation);
  },
});
