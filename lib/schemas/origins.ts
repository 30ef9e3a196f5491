import * as z from './zod';
import { MAX_ALLOWED_ORIGINS, ORIGIN_PATTERN, originProblem } from '../domain/cors';
import { meta, doc, schema } from './common';

/**
 * One origin: originProblem judges it (and says what is wrong); the document's JSON Schema carries
 * the same ORIGIN_PATTERN it checks, so a schema-driven client refuses "" and wildcards too (the
 * pattern takes a default port written out, which the API refuses as not exact).
 */
const Origin = /* @__PURE__ */ schema(() =>
  meta(
    z.string().check(
      z.maxLength(300),
      z.superRefine((origin, context) => {
        const problem = originProblem(origin);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      }),
    ),
    {
      description: 'An exact origin: scheme, a DNS name or IP address (no wildcard), optional port.',
      examples: ['https://glowaesthetics.com'],
      pattern: ORIGIN_PATTERN,
    },
  ),
);

/** Exact browser origins (API reference, online booking and CORS), deduplicated in the order given. */
export const AllowedOrigins = (min: number, description: string) =>
  doc(
    z.pipe(
      z.array(Origin).check(z.minLength(min), z.maxLength(MAX_ALLOWED_ORIGINS)),
      z.transform((origins) => [...new Set(origins)]),
    ),
    `${description} ${min}-${MAX_ALLOWED_ORIGINS} exact origins (scheme, a DNS name or IP address with no wildcard, optional port): https:// only, except http://localhost and http://127.0.0.1 on any port.`,
    ['https://glowaesthetics.com', 'http://localhost:3000'],
  );
