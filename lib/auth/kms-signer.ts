import { KMSClient, SignCommand } from '@aws-sdk/client-kms';

/**
 * Signing with the token key on AWS: a KMS key (ECC_NIST_P256) that never leaves KMS. Only the
 * token function signs (lib/auth/issue.ts), so only its bundle carries the KMS client.
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

/** ES256 signatures (JOSE form) made by KMS with the key `keyId`. */
export function kmsSign(keyId: string, region: string): (data: Buffer) => Promise<Buffer> {
  const kms = new KMSClient({ region });
  return async (data) => {
    const { Signature } = await kms.send(
      new SignCommand({ KeyId: keyId, Message: data, MessageType: 'RAW', SigningAlgorithm: 'ECDSA_SHA_256' }),
    );
    return derToJose(Signature!);
  };
}
