import type { DataFailure, DataFailureCode } from '../db/failure';
import { AppError, type ErrorCode } from '../errors';

/**
 * Data-layer failures as the API's errors. A use case answers each way its write can fail with
 * one table (`failureOf`); what the data layer throws (lib/db/failure.ts) is answered here, once,
 * for every operation (lib/http/errors.ts asks `dataFailureError`).
 */

/** Each failure's answer: an error code, or the error built from the failure's details. */
export type FailureTable<R extends { failed: string }> = {
  readonly [K in R['failed']]: ErrorCode | ((failure: Extract<R, { failed: K }>) => AppError);
};

/** The error a use case answers a failed write with, by its table. */
export function failureOf<R extends { failed: string }>(table: FailureTable<R>, failure: R): AppError {
  const answer = table[failure.failed as R['failed']] as ErrorCode | ((failure: R) => AppError);
  return typeof answer === 'function' ? answer(failure) : new AppError(answer);
}

/** What the data layer throws, as answers: `null` is an unexpected failure (a logged 500). */
const DATA_FAILURES: Record<DataFailureCode, (() => AppError) | null> = {
  busy: () => new AppError('CONFLICT', 'The resource is busy with concurrent changes; try again'),
  too_large: () => new AppError('VALIDATION_ERROR', 'The change touches too many items at once'),
  unprocessed: null,
  collision: null,
  corrupt: null,
};

export const dataFailureError = (failure: DataFailure): AppError | null => DATA_FAILURES[failure.code]?.() ?? null;
