import { createPrivateKey, generateKeyPairSync, type JsonWebKey, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The local token key (P-256), generated once and kept under DATA_DIR, so tokens survive restarts
 * and the admin command shares it. On AWS the key is a KMS key instead (SIGNING_KMS_KEY_ID).
 */
export function keyFromFile(dataDir: string): KeyObject {
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
  return createPrivateKey({ key: privateJwk, format: 'jwk' });
}
