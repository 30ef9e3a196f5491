import { sign as cryptoSign } from 'node:crypto';
import { authorizeStandIn } from '../aws/local-runtime';
import { config } from '../config';
import { keyFromFile } from './key-file';
import { kmsSign } from './kms-signer';
import { tokenPublicJwk, type PublicJwk } from './token-key';

/** Signs access tokens (ES256). Locally a key file under DATA_DIR; on AWS a KMS key that never leaves KMS. */
export interface TokenSigner {
  kid: string;
  publicJwk: PublicJwk;
  /** ES256 signature in JOSE (IEEE P1363, r||s) form. */
  sign(data: Buffer): Promise<Buffer>;
}

let signer: TokenSigner | undefined;

function makeSigner(): TokenSigner {
  const publicJwk = tokenPublicJwk();
  const { SIGNING_KMS_KEY_ID, DATA_DIR, AWS_REGION } = config();
  let sign: TokenSigner['sign'];
  if (SIGNING_KMS_KEY_ID) {
    sign = kmsSign(SIGNING_KMS_KEY_ID, AWS_REGION);
  } else {
    const key = keyFromFile(DATA_DIR);
    sign = async (data) => {
      await authorizeStandIn({ action: 'kms:Sign', resource: 'signingKey' });
      return cryptoSign('sha256', data, { key, dsaEncoding: 'ieee-p1363' });
    };
  }
  return { kid: publicJwk.kid, publicJwk, sign };
}

/** The signing side of the token key, for the token function (and tests); verification needs only lib/auth/token-key.ts. */
export async function tokenSigner(): Promise<TokenSigner> {
  signer ??= makeSigner();
  return signer;
}

export function resetTokenSigner(): void {
  signer = undefined;
}
