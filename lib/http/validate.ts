import type { z } from 'zod';
import { AppError, type FieldProblem } from '../errors';

/** Zod issues become the contract's `details: [{ path, message }]`. */
export function parseInput<T>(schema: z.ZodType<T> | undefined, value: unknown, where: string): T {
  if (!schema) return value as T;
  const result = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
  if (result.success) return result.data;
  const details: FieldProblem[] = result.error.issues.map((issue) => ({
    path: issue.path.length ? issue.path.join('.') : where,
    message: issue.message,
  }));
  throw new AppError('VALIDATION_ERROR', `Invalid ${where}: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`, { details });
}

/** `If-Match: "3"`, `W/"3"` or `3`. Anything else is a validation error, not a silent ignore. */
export function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?(?:"(\d+)"|(\d+))\s*$/.exec(header);
  if (!match) {
    throw new AppError('VALIDATION_ERROR', 'If-Match must be a resource version such as "3"', {
      details: [{ path: 'If-Match', message: 'expected a version such as "3"' }],
    });
  }
  const version = Number(match[1] ?? match[2]);
  // No resource ever reaches such a version: stale by definition (and unsafe to send to DynamoDB).
  if (!Number.isSafeInteger(version)) throw new AppError('VERSION_CONFLICT');
  return version;
}
