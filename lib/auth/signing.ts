import { createPrivateKey, createPublicKey, generateKeyPairSync, sign as cryptoSign, type JsonWebKey } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { calculateJwkThumbprint } from 'jose';
import { config } from '../config';

/** Signs access tokens (ES256). Locally a key file under DATA_DIR; on AWS a KMS key that never leaves KMS. */
export interface TokenSigner {
  kid: string;
  publicJwk: JsonWebKey & { kid: string; alg: 'ES256'; use: 'sig' };
  /** ES256 signature in JOSE (IEEE P1363, r||s) form. */
  sign(data: Buffer): Promise<Buffer>;
}

async function withKid(jwk: JsonWebKey): Promise<TokenSigner['publicJwk']> {
  const { kty, crv, x, y } = jwk as { kty: string; crv: string; x: string; y: string };
  const kid = await calculateJwkThumbprint({ kty, crv, x, y });
  return { kty, crv, x, y, kid, alg: 'ES256', use: 'sig' };
}

/** Generated once and kept on disk, so tokens survive restarts and the admin command shares it. */
async function fileSigner(dataDir: string): Promise<TokenSigner> {
  const file = join(dataDir, 'signing-key.json');
  let privateJwk: JsonWebKey;
  try {
    privateJwk = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    try {
      writeFileSync(file, JSON.stringify(privateKey.export({ format: 'jwk' })), { flag: 'wx', mode: 0o600 });
    } catch {
      // Another process (server or admin command) wrote it first: use theirs.
    }
    privateJwk = JSON.parse(readFileSync(file, 'utf8'));
  }
  const key = createPrivateKey({ key: privateJwk, format: 'jwk' });
  const publicJwk = await withKid(createPublicKey(key).export({ format: 'jwk' }));
  return {
    kid: publicJwk.kid,
    publicJwk,
    sign: async (data) => cryptoSign('sha256', data, { key, dsaEncoding: 'ieee-p1363' }),
  };
}

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

async function kmsSigner(keyId: string): Promise<TokenSigner> {
  const kms = new KMSClient({ region: config().AWS_REGION });
  const { PublicKey } = await kms.send(new GetPublicKeyCommand({ KeyId: keyId }));
  const publicJwk = await withKid(
    createPublicKey({ key: Buffer.from(PublicKey!), format: 'der', type: 'spki' }).export({ format: 'jwk' }),
  );
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

let signer: Promise<TokenSigner> | undefined;

export function tokenSigner(): Promise<TokenSigner> {
  const { SIGNING_KMS_KEY_ID, DATA_DIR } = config();
  signer ??= SIGNING_KMS_KEY_ID ? kmsSigner(SIGNING_KMS_KEY_ID) : fileSigner(DATA_DIR);
  return signer;
}

export function resetTokenSigner(): void {
  signer = undefined;
}
