import * as z from './zod';
import { KEY_RATE_LIMIT_DEFAULTS as DEFAULTS, KEY_RATE_LIMIT_MAX as MAX } from '../domain/rate-limit';
import { doc, EXAMPLE_ID, IdOf, meta, OutId, schema, Timestamps } from './common';
import { AllowedOrigins } from './origins';

/** Shown in examples: `pk_`, the practice and the key id in hex. */
export const EXAMPLE_PUBLISHABLE_KEY = /* @__PURE__ */ schema(
  () => `pk_${EXAMPLE_ID.practice.replace(/-/g, '')}${EXAMPLE_ID.publishableKey.replace(/-/g, '')}`,
);

const BUDGETS = {
  per_client_ip: "Each client IP address's own budget on this key",
  overall: "The key's overall budget, all its visitors together",
} as const;

/** A budget as answered. */
const Budget = (budget: keyof typeof BUDGETS) =>
  doc(
    z.object({
      requests_per_second: doc(z.number(), 'Sustained requests per second.', DEFAULTS[budget].requests_per_second),
      burst: doc(
        z.number().check(z.int()),
        'Requests that may come at once (RateLimit-Limit).',
        DEFAULTS[budget].burst,
      ),
    }),
    `${BUDGETS[budget]}.`,
  );

export const PublishableKeyRateLimits = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      per_client_ip: Budget('per_client_ip'),
      overall: Budget('overall'),
    }),
    {
      id: 'PublishableKeyRateLimits',
      description:
        "How fast public calls with this key may come: each client IP has its own budget, and the key an overall one far above any one visitor's, so a few visitors cannot use up online booking for everyone else. Over either, a call is 429 RATE_LIMITED with Retry-After.",
    },
  ),
);

/** A budget as a create or PATCH gives it: either field, each bounded. */
const BudgetChange = (budget: keyof typeof BUDGETS) =>
  doc(
    z.partial(
      z.strictObject({
        requests_per_second: doc(
          z.number().check(z.int(), z.gte(1), z.lte(MAX.requests_per_second)),
          `Sustained requests per second (1-${MAX.requests_per_second}).`,
          DEFAULTS[budget].requests_per_second,
        ),
        burst: doc(
          z.number().check(z.int(), z.gte(1), z.lte(MAX.burst)),
          `Requests that may come at once (1-${MAX.burst}).`,
          DEFAULTS[budget].burst,
        ),
      }),
    ),
    `${BUDGETS[budget]}; a field left out keeps its value (on create, the default).`,
  );

const RateLimitsChange = (what: string) =>
  doc(
    z.partial(z.strictObject({ per_client_ip: BudgetChange('per_client_ip'), overall: BudgetChange('overall') })),
    `${what} A client IP's budget may not be above the overall one (400 VALIDATION_ERROR). Defaults: per client IP ${DEFAULTS.per_client_ip.requests_per_second}/s, burst ${DEFAULTS.per_client_ip.burst}; overall ${DEFAULTS.overall.requests_per_second}/s, burst ${DEFAULTS.overall.burst}.`,
  );

export const PublishableKey = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      id: OutId('publishableKey', 'The key id (what PATCH and DELETE take).'),
      key: doc(
        z.string(),
        'The key: send it as `X-Publishable-Key` on /v1/public/* calls. Not a secret: it ships in web pages.',
        EXAMPLE_PUBLISHABLE_KEY,
      ),
      name: doc(z.string(), 'A label for people.', 'Website booking'),
      allowed_origins: doc(
        z.array(z.string()),
        'The sites whose pages may call the public API with this key, and embed the booking page.',
        ['https://glowaesthetics.com'],
      ),
      rate_limits: PublishableKeyRateLimits,
      ...Timestamps,
    }),
    { description: 'A publishable key: the credential of browsers booking online.', id: 'PublishableKey' },
  ),
);

const Name = /* @__PURE__ */ schema(() =>
  doc(
    z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
    'A label for people (1-200 characters).',
    'Website booking',
  ),
);

export const CreatePublishableKeyBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      name: Name,
      allowed_origins: AllowedOrigins(1, 'The sites whose pages may use this key:'),
      rate_limits: z.optional(RateLimitsChange('Optional: what is left out takes the defaults.')),
    }),
    'The new key.',
  ),
);

export const UpdatePublishableKeyBody = /* @__PURE__ */ schema(() =>
  doc(
    z.partial(
      z.strictObject({
        name: Name,
        allowed_origins: AllowedOrigins(1, 'The sites whose pages may use this key (replaces the list):'),
        rate_limits: RateLimitsChange('Any budget, any field of it; the rest stays.'),
      }),
    ),
    'Any subset; applies on every server within 60 s.',
  ),
);

export const PublishableKeyParams = /* @__PURE__ */ schema(() =>
  z.object({ id: IdOf('publishableKey', 'The key id.') }),
);
