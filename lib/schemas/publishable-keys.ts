import * as z from './zod';
import { doc, EXAMPLE_ID, IdOf, Instant, meta, OutId, schema } from './common';
import { AllowedOrigins } from './origins';

/** Shown in examples: `pk_`, the practice and the key id in hex. */
export const EXAMPLE_PUBLISHABLE_KEY = /* @__PURE__ */ schema(() => `pk_${EXAMPLE_ID.practice.replace(/-/g, '')}${EXAMPLE_ID.publishableKey.replace(/-/g, '')}`);

export const PublishableKey = /* @__PURE__ */ schema(() => meta(z.object({
  id: OutId('publishableKey', 'The key id (what DELETE takes).'),
  key: doc(z.string(), 'The key: send it as `X-Publishable-Key` on /v1/public/* calls. Not a secret: it ships in web pages.', EXAMPLE_PUBLISHABLE_KEY),
  name: doc(z.string(), 'A label for people.', 'Website booking'),
  allowed_origins: doc(z.array(z.string()), 'The sites whose pages may call the public API with this key, and embed the booking page.', ['https://glowaesthetics.com']),
  created_at: Instant('When it was created.'),
}), { description: 'A publishable key: the credential of browsers booking online.', id: 'PublishableKey' }));

export const CreatePublishableKeyBody = /* @__PURE__ */ schema(() => doc(z.strictObject({
  name: doc(z.string().check(z.trim(), z.minLength(1), z.maxLength(200)), 'A label for people (1-200 characters).', 'Website booking'),
  allowed_origins: AllowedOrigins(1, 'The sites whose pages may use this key:'),
}), 'The new key.'));

export const PublishableKeyParams = /* @__PURE__ */ schema(() => z.object({ id: IdOf('publishableKey', 'The key id.') }));
