import { kmsPublicKey } from '../../lib/auth/kms-public-key';
import { customResourceHandler } from '../../lib/aws/custom-resource';
import { config } from '../../lib/config';

/**
 * Custom::TokenPublicKey (infra/constructs/token-public-key.ts): at deploy, reads the token key's
 * public half from KMS once, for the stage to give every function as TOKEN_PUBLIC_KEY.
 */
export const handler = customResourceHandler(async ({ KeyId }) => ({
  physicalResourceId: KeyId,
  data: { PublicKey: (await kmsPublicKey(KeyId, config().AWS_REGION)).toString('base64') },
}));
