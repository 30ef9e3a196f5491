import { GetPublicKeyCommand, KMSClient } from '@aws-sdk/client-kms';

/**
 * The DER (SPKI) public key of a KMS asymmetric key, with the SDK's KMS client (its retries of
 * throttling and server errors, 3 attempts). Read once per deploy, by Custom::TokenPublicKey
 * (functions/deploy/tokenPublicKey.ts): no API function calls KMS for it (docs/decisions/0017).
 */
export async function kmsPublicKey(keyId: string, region: string): Promise<Buffer> {
  const { PublicKey } = await new KMSClient({ region, maxAttempts: 3 }).send(new GetPublicKeyCommand({ KeyId: keyId }));
  if (!PublicKey) throw new Error(`kms:GetPublicKey answered no key for ${keyId}`);
  return Buffer.from(PublicKey);
}
