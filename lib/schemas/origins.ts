import * as z from './zod';
import { MAX_ALLOWED_ORIGINS, originProblem } from '../domain/cors';
import { doc, schema } from './common';

const Origin = /* @__PURE__ */ schema(() => doc(
  z.string().check(z.maxLength(300), z.superRefine((origin, context) => {
    const problem = originProblem(origin);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })),
  'An exact origin.',
  'https://glowaesthetics.com',
));

/** Exact browser origins (API reference, online booking and CORS), deduplicated in the order given. */
export const AllowedOrigins = (min: number, description: string) =>
  doc(
    z.pipe(z.array(Origin).check(z.minLength(min), z.maxLength(MAX_ALLOWED_ORIGINS)), z.transform((origins) => [...new Set(origins)])),
    `${description} ${min}-${MAX_ALLOWED_ORIGINS} exact origins (scheme, host, optional port): https:// only, except http://localhost and http://127.0.0.1 on any port.`,
    ['https://glowaesthetics.com', 'http://localhost:3000'],
  );
