import { createPrivateKey, generateKeyPairSync, sign as cryptoSign, type JsonWebKey } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { config } from '../config';
import { publicJwkOf, type TokenSigner } from './token-key';

export type { TokenSigner } from './token-key';

/** Generated once and kept on disk, so tokens survive restarts and the admin command shares it. */
function fileSigner(dataDir: string): TokenSigner {
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
  const publicJwk = publicJwkOf(key);
  return {
    kid: publicJwk.kid,
    publicJwk,
    sign: async (data) => cryptoSign('sha256', data, { key, dsaEncoding: 'ieee-p1363' }),
  };
}

let signer: Promise<TokenSigner> | undefined;

/**
 * The token key: its public JWK (every authenticated function verifies with it) and signing
 * (the token function). The KMS client is a separate module, loaded only when a KMS key is set.
 */
export function tokenSigner(): Promise<TokenSigner> {
  const { SIGNING_KMS_KEY_ID, DATA_DIR } = config();
  signer ??= SIGNING_KMS_KEY_ID
    ? import('./kms-signer').then(({ kmsSigner }) => kmsSigner(SIGNING_KMS_KEY_ID))
    : Promise.resolve().then(() => fileSigner(DATA_DIR));
  return signer;
}

export function resetTokenSigner(): void {
  signer = undefined;
}
