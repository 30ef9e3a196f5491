import { createPublicKey } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { config } from '../config';
import { publicJwkOf, type TokenSigner } from './token-key';

/**
 * The token key on AWS: a KMS key (ECC_NIST_P256) that never leaves KMS. Loaded only when
 * SIGNING_KMS_KEY_ID is set (lib/auth/signing.ts imports it dynamically), so local runs and tests
 * never evaluate the KMS client.
 */

/** KMS answers ECDSA signatures in DER; JWS wants r||s, 32 bytes each. */
export function derToJose(der: Uint8Array): Buffer {
  const bytes = Buffer.from(der);
  let offset = 2 + (bytes[1] & 0x80 ? bytes[1] & 0x7f : 0);
  const readInt = () => {
    const length = bytes[offset + 1];
    const value = bytes.subarray(offset + 2, offset + 2 + length);
    offset += 2 + length;
    const trimmed = value[0] === 0 ? value.subarray(1) : value;
    return Buffer.concat([Buffer.alloc(32 - trimmed.length), trimmed]);
  };
  return Buffer.concat([readInt(), readInt()]);
}

export async function kmsSigner(keyId: string): Promise<TokenSigner> {
  const kms = new KMSClient({ region: config().AWS_REGION });
  const { PublicKey } = await kms.send(new GetPublicKeyCommand({ KeyId: keyId }));
  const publicJwk = publicJwkOf(createPublicKey({ key: Buffer.from(PublicKey!), format: 'der', type: 'spki' }));
  return {
    kid: publicJwk.kid,
    publicJwk,
    sign: async (data) => {
      const { Signature } = await kms.send(
        new SignCommand({ KeyId: keyId, Message: data, MessageType: 'RAW', SigningAlgorithm: 'ECDSA_SHA_256' }),
      );
      return derToJose(Signature!);
    },
  };
}
