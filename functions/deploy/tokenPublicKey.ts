import { kmsPublicKey } from '../../lib/auth/kms-public-key';
import { customResourceHandler } from '../../lib/aws/custom-resource';
import { config } from '../../lib/config';
import { retry } from '../../lib/retry';

/**
 * Tries of the read while the reader's new role may not yet be allowed: CloudFormation invokes it
 * once the policy is created, which IAM may not have propagated yet (aws/aws-cdk#37675). Waits of
 * 1, 2, 4, 8 and 16 s, within the function's timeout (infra/constructs/token-public-key.ts).
 */
const ACCESS_DENIED_ATTEMPTS = 6;

/**
 * Custom::TokenPublicKey (infra/constructs/token-public-key.ts): at deploy, reads the token key's
 * public half from KMS once, for the stage to give every function as TOKEN_PUBLIC_KEY.
 */
export const handler = customResourceHandler(async ({ KeyId }) => {
  const publicKey = await retry(async () => ({ done: await kmsPublicKey(KeyId, config().AWS_REGION) }), {
    attempts: ACCESS_DENIED_ATTEMPTS,
    retryable: (error) => (error as { name?: string }).name === 'AccessDeniedException',
    delayMs: (attempt) => 1000 * 2 ** (attempt - 1),
    exhausted: () => {
      throw new Error('kms:GetPublicKey: still denied');
    },
  });
  return { physicalResourceId: KeyId, data: { PublicKey: publicKey.toString('base64') } };
});
