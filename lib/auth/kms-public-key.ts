import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { exponentialJitter, retry } from '../retry';

/**
 * kms:GetPublicKey without the KMS client. Every authenticated function reads the token key's
 * public half once per container, and the KMS client would be 27 KB of each of those bundles
 * (its error classes and schemas are not tree-shaken) for this one call. The request is the SDK's
 * own: AWS JSON 1.1, signed with the SDK's SignatureV4 and the default credentials; the endpoint
 * follows the SDK's (`AWS_ENDPOINT_URL_KMS`, then `AWS_ENDPOINT_URL`, else the regional one).
 * Transient failures (network, throttling, 5xx) are retried with jittered backoff, 3 attempts.
 */

type Data = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: Data) => (typeof data === 'string' ? Buffer.from(data) : ArrayBuffer.isView(data) ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : Buffer.from(data));

/** node:crypto as SignatureV4's checksum: SHA-256, or HMAC-SHA-256 when given a secret. */
class Sha256 {
  private hash: Hash | Hmac;
  constructor(private readonly secret?: Data) {
    this.hash = this.fresh();
  }
  private fresh() {
    return this.secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(this.secret));
  }
  update(data: Data) {
    this.hash.update(bytes(data));
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
  reset() {
    this.hash = this.fresh();
  }
}

let credentials: ReturnType<typeof defaultProvider> | undefined;

function endpointOf(region: string): URL {
  const configured = process.env.AWS_ENDPOINT_URL_KMS || process.env.AWS_ENDPOINT_URL;
  return new URL(configured || `https://kms.${region}.${region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com'}`);
}

class KmsError extends Error {
  constructor(message: string, readonly retryable: boolean) {
    super(message);
  }
}

async function getPublicKeyOnce(keyId: string, region: string): Promise<Buffer> {
  const endpoint = endpointOf(region);
  const body = JSON.stringify({ KeyId: keyId });
  credentials ??= defaultProvider();
  const signer = new SignatureV4({ service: 'kms', region, credentials, sha256: Sha256 });
  const signed = await signer.sign({
    method: 'POST',
    protocol: endpoint.protocol,
    hostname: endpoint.hostname,
    port: endpoint.port ? Number(endpoint.port) : undefined,
    path: endpoint.pathname,
    query: {},
    headers: { host: endpoint.host, 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'TrentService.GetPublicKey' },
    body,
  });
  const send = endpoint.protocol === 'http:' ? httpRequest : httpsRequest;
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = send(endpoint, { method: 'POST', headers: signed.headers, timeout: 5_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('kms:GetPublicKey timed out')));
    req.on('error', (error) => reject(new KmsError(`kms:GetPublicKey failed: ${error.message}`, true)));
    req.end(body);
  });
  let answer: { PublicKey?: string; __type?: string; message?: string; Message?: string } = {};
  try {
    answer = JSON.parse(text);
  } catch {
    // An HTML or empty error page: the status says enough.
  }
  if (status === 200 && answer.PublicKey) return Buffer.from(answer.PublicKey, 'base64');
  const type = String(answer.__type ?? '').split('#').pop() ?? '';
  throw new KmsError(`kms:GetPublicKey answered ${status} ${type}: ${answer.message ?? answer.Message ?? ''}`.trim(), status >= 500 || status === 429 || /Throttl/.test(type));
}

/** The DER (SPKI) public key of a KMS asymmetric key. */
export const kmsPublicKey = (keyId: string, region: string, attempts = 3): Promise<Buffer> =>
  retry(async () => ({ done: await getPublicKeyOnce(keyId, region) }), {
    attempts,
    retryable: (error) => error instanceof KmsError && error.retryable,
    delayMs: exponentialJitter(100),
    exhausted: () => {
      throw new KmsError(`kms:GetPublicKey: no answer after ${attempts} attempts`, false);
    },
  });
