import { createHash, createHmac, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { issueToken } from '../../lib/auth/issue';
import { kmsPublicKey } from '../../lib/auth/kms-public-key';
import { resetTokenSigner } from '../../lib/auth/signing';
import { publicJwkOf, resetTokenPublicJwk, tokenPublicJwk } from '../../lib/auth/token-key';
import { resetVerifier, verifyToken } from '../../lib/auth/tokens';
import type { CustomResourceEvent } from '../../lib/aws/custom-resource';
import { resetConfig } from '../../lib/config';
import { handler as tokenPublicKeyReader } from '../../functions/deploy/tokenPublicKey';

/**
 * The AWS side of the token key against a stand-in KMS on localhost (the SDK's
 * AWS_ENDPOINT_URL_KMS): GetPublicKey and Sign through the SDK's KMS client. Every request's
 * SigV4 signature is checked here with an independent implementation of the algorithm. The
 * public key is read at deploy by Custom::TokenPublicKey (functions/deploy/tokenPublicKey.ts),
 * whose answer to CloudFormation this stand-in's response URL takes; functions are given it as
 * TOKEN_PUBLIC_KEY.
 */
const KEY_ID = 'arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const CREDENTIALS = {
  AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
  AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  AWS_SESSION_TOKEN: 'session-token-example',
};
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const spki = publicKey.export({ format: 'der', type: 'spki' });

interface Seen {
  target: string;
  body: Record<string, unknown>;
  signatureValid: boolean;
  authorization: string;
}
let seen: Seen[] = [];
/** What was PUT to the stand-in's CloudFormation response URL. */
let responses: Array<{ headers: IncomingMessage['headers']; body: Record<string, unknown> }> = [];
/** What the stand-in answers next, by target; default: success. */
let failures: Array<{ status: number; type: string }> = [];

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** SigV4 (docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html), written out independently. */
function signatureValid(req: IncomingMessage, body: string): boolean {
  const authorization = String(req.headers.authorization ?? '');
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!match) return false;
  const [, accessKey, day, region, service, signedHeaders, signature] = match;
  if (accessKey !== CREDENTIALS.AWS_ACCESS_KEY_ID || region !== 'us-east-1' || service !== 'kms') return false;
  const names = signedHeaders!.split(';');
  if (!['host', 'x-amz-date', 'x-amz-target', 'x-amz-security-token'].every((name) => names.includes(name)))
    return false;
  const canonicalHeaders = names.map((name) => `${name}:${String(req.headers[name]).trim()}\n`).join('');
  const canonicalRequest = [req.method, req.url!.split('?')[0], '', canonicalHeaders, signedHeaders, sha256(body)].join(
    '\n',
  );
  const date = String(req.headers['x-amz-date']);
  const scope = `${day}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', date, scope, sha256(canonicalRequest)].join('\n');
  let key: Buffer = hmac(`AWS4${CREDENTIALS.AWS_SECRET_ACCESS_KEY}`, day!);
  for (const part of [region!, service!, 'aws4_request']) key = hmac(key, part);
  return createHmac('sha256', key).update(stringToSign).digest('hex') === signature;
}

let server: Server;
const saved: Record<string, string | undefined> = {};
const standIn = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const env = () => ({
  ...CREDENTIALS,
  AWS_ENDPOINT_URL_KMS: standIn(),
  SIGNING_KMS_KEY_ID: KEY_ID,
  TOKEN_PUBLIC_KEY: spki.toString('base64'),
  AWS_REGION: 'us-east-1',
});

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.method === 'PUT') {
        responses.push({ headers: req.headers, body: JSON.parse(body) });
        return res.writeHead(200).end();
      }
      const target = String(req.headers['x-amz-target']);
      const parsed = JSON.parse(body) as Record<string, unknown>;
      seen.push({
        target,
        body: parsed,
        signatureValid: signatureValid(req, body),
        authorization: String(req.headers.authorization),
      });
      const reply = (status: number, value: object) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify(value));
      };
      const failure = failures.shift();
      if (failure) return reply(failure.status, { __type: failure.type, message: 'stand-in failure' });
      if (target === 'TrentService.GetPublicKey')
        return reply(200, {
          KeyId: parsed.KeyId,
          PublicKey: spki.toString('base64'),
          KeySpec: 'ECC_NIST_P256',
          KeyUsage: 'SIGN_VERIFY',
        });
      if (target === 'TrentService.Sign') {
        const signature = sign('sha256', Buffer.from(String(parsed.Message), 'base64'), {
          key: privateKey,
          dsaEncoding: 'der',
        });
        return reply(200, {
          KeyId: parsed.KeyId,
          Signature: signature.toString('base64'),
          SigningAlgorithm: 'ECDSA_SHA_256',
        });
      }
      reply(400, { __type: 'UnknownOperationException' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  for (const [name, value] of Object.entries(env())) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  resetConfig();
});

afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfig();
  resetTokenPublicJwk();
  resetTokenSigner();
  resetVerifier();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen = [];
  failures = [];
  responses = [];
  resetTokenPublicJwk();
  resetTokenSigner();
  resetVerifier();
});

describe('the token key on AWS (a stand-in KMS)', () => {
  it('reads the public key with one signed GetPublicKey, session token included', async () => {
    expect(await kmsPublicKey(KEY_ID, 'us-east-1')).toEqual(spki);
    expect(seen).toEqual([
      expect.objectContaining({ target: 'TrentService.GetPublicKey', body: { KeyId: KEY_ID }, signatureValid: true }),
    ]);
  });

  it('retries throttling and server errors, and gives up at once on anything else', async () => {
    failures = [
      { status: 400, type: 'ThrottlingException' },
      { status: 500, type: 'KMSInternalException' },
    ];
    expect(await kmsPublicKey(KEY_ID, 'us-east-1')).toEqual(spki);
    expect(seen).toHaveLength(3);
    seen = [];
    failures = [{ status: 400, type: 'com.amazonaws.kms#AccessDeniedException' }];
    await expect(kmsPublicKey(KEY_ID, 'us-east-1')).rejects.toMatchObject({ name: 'AccessDeniedException' });
    expect(seen).toHaveLength(1);
  });

  it('issues with kms:Sign, verifies with the public key it was given (no KMS read), and serves the same key in the JWKS', async () => {
    const caller = { medspaId: '6f1c1f7e-8c4b-4f7e-9a53-2f0d6a3b9c11', clientId: 'ci_test', role: 'admin' as const };
    const token = await issueToken(caller, new Date());
    expect(await verifyToken(token)).toEqual(caller);
    expect(await verifyToken(await issueToken(caller, new Date()))).toEqual(caller);
    expect(tokenPublicJwk()).toEqual(publicJwkOf(publicKey));
    expect(seen.map((s) => s.target)).toEqual(['TrentService.Sign', 'TrentService.Sign']);
    expect(seen.every((s) => s.signatureValid)).toBe(true);
  });

  it('a function given the KMS key but not its public half says so', () => {
    process.env.TOKEN_PUBLIC_KEY = '';
    resetConfig();
    try {
      expect(() => tokenPublicJwk()).toThrow(/TOKEN_PUBLIC_KEY is not set/);
    } finally {
      process.env.TOKEN_PUBLIC_KEY = env().TOKEN_PUBLIC_KEY;
      resetConfig();
    }
  });
});

describe("Custom::TokenPublicKey, the deploy-time reader (CloudFormation's side stood in)", () => {
  const event = (RequestType: CustomResourceEvent['RequestType']): CustomResourceEvent => ({
    RequestType,
    ResponseURL: `${standIn()}/cloudformation-response?X-Amz-Signature=stand-in`,
    StackId: 'arn:aws:cloudformation:us-east-1:111122223333:stack/MedspaApi-dev-Stateless/1',
    RequestId: 'request-1',
    LogicalResourceId: 'TokenPublicKey',
    ...(RequestType === 'Create' ? {} : { PhysicalResourceId: KEY_ID }),
    ResourceProperties: { ServiceToken: 'arn:aws:lambda:us-east-1:111122223333:function:reader', KeyId: KEY_ID },
  });

  it("answers Create and Update with the key's public half (one signed GetPublicKey), what functions are given as TOKEN_PUBLIC_KEY", async () => {
    for (const type of ['Create', 'Update'] as const) {
      seen = [];
      responses = [];
      await tokenPublicKeyReader(event(type));
      expect(seen).toEqual([
        expect.objectContaining({ target: 'TrentService.GetPublicKey', body: { KeyId: KEY_ID }, signatureValid: true }),
      ]);
      expect(responses).toHaveLength(1);
      expect(responses[0].headers['content-type']).toBe('');
      expect(responses[0].body).toEqual({
        Status: 'SUCCESS',
        PhysicalResourceId: KEY_ID,
        StackId: event(type).StackId,
        RequestId: 'request-1',
        LogicalResourceId: 'TokenPublicKey',
        Data: { PublicKey: spki.toString('base64') },
      });
    }
    expect(
      publicJwkOf(
        createPublicKey({
          key: Buffer.from(String((responses[0].body.Data as Record<string, string>).PublicKey), 'base64'),
          format: 'der',
          type: 'spki',
        }),
      ),
    ).toEqual(publicJwkOf(publicKey));
  });

  it('waits out a grant IAM has not yet propagated (AccessDenied), then answers', async () => {
    failures = [{ status: 400, type: 'com.amazonaws.kms#AccessDeniedException' }];
    await tokenPublicKeyReader(event('Create'));
    expect(seen.map((s) => s.target)).toEqual(['TrentService.GetPublicKey', 'TrentService.GetPublicKey']);
    expect(responses.map((r) => r.body.Status)).toEqual(['SUCCESS']);
  });

  it("answers FAILED with KMS's reason, so the deploy stops and says why; Delete succeeds without a call", async () => {
    failures = [{ status: 400, type: 'com.amazonaws.kms#NotFoundException' }];
    await tokenPublicKeyReader(event('Create'));
    expect(seen).toHaveLength(1);
    expect(responses.map((r) => [r.body.Status, r.body.Reason])).toEqual([
      ['FAILED', expect.stringMatching(/^NotFoundException: /)],
    ]);
    responses = [];
    seen = [];
    await tokenPublicKeyReader(event('Delete'));
    expect(seen).toEqual([]);
    expect(responses.map((r) => [r.body.Status, r.body.PhysicalResourceId])).toEqual([['SUCCESS', KEY_ID]]);
  });
});
