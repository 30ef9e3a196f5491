import type { IncomingMessage } from 'node:http';
import { S3Client } from '@aws-sdk/client-s3';
import { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import { LOCAL_S3_SECRET } from '../../lib/aws/local-runtime';

/**
 * SigV4 as S3 checks it, for the local object store (s3rver checks nothing of it): the signature
 * of a pre-signed URL or of an `Authorization` header is computed again with the SDK's own signer
 * from the request as it arrived (its signed headers' values, its path and query) and must be the
 * one given; a pre-signed URL must also be within its validity. So an upload of another length or
 * type than signed, a tampered signature or an expired URL is refused as S3 refuses it.
 */

export type SignatureCheck =
  | { ok: true; accessKeyId: string }
  | { ok: false; status: 400 | 403; code: string; message: string };

const MISMATCH: SignatureCheck = {
  ok: false,
  status: 403,
  code: 'SignatureDoesNotMatch',
  message:
    'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
};

/** Query parameters the signature itself consists of (the signer adds them again). */
const SIGNATURE_PARAMS = new Set([
  'x-amz-algorithm',
  'x-amz-credential',
  'x-amz-date',
  'x-amz-expires',
  'x-amz-signature',
  'x-amz-signedheaders',
  'x-amz-security-token',
  'x-amz-content-sha256',
]);

/** S3's longest pre-signed validity: 7 days. */
const MAX_EXPIRES_SECONDS = 604_800;

/** `20261128T152828Z` -> Date. */
const amzDate = (text: string | null | undefined): Date | undefined => {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text ?? '');
  return match ? new Date(`${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}Z`) : undefined;
};

let sha256: S3Client['config']['sha256'] | undefined;

function presigner(accessKeyId: string, region: string) {
  sha256 ??= new S3Client({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }).config
    .sha256;
  return new S3RequestPresigner({
    credentials: { accessKeyId, secretAccessKey: LOCAL_S3_SECRET },
    region,
    sha256,
    service: 's3',
  });
}

/** The request as the signer saw it: method, host, path, the query without the signature, the signed headers only. */
function requestAsSigned(request: IncomingMessage, url: URL, signedHeaders: readonly string[]) {
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) if (!SIGNATURE_PARAMS.has(name.toLowerCase())) query[name] = value;
  const headers: Record<string, string> = {};
  for (const name of signedHeaders) {
    const value = request.headers[name];
    if (value === undefined) return undefined;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  return {
    method: request.method ?? 'GET',
    protocol: 'http:',
    hostname: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    path: url.pathname,
    query,
    headers,
  };
}

/** Checks a request's signature (and a pre-signed URL's validity at `now`). */
export async function checkSignature(request: IncomingMessage, now: Date): Promise<SignatureCheck> {
  const url = new URL(request.url ?? '/', `http://${request.headers.host ?? '127.0.0.1'}`);
  const params = url.searchParams;
  const presigned = params.get('X-Amz-Signature');
  const authorization = request.headers.authorization;
  let credential: string | undefined;
  let signedHeaders: string[];
  let given: string | undefined;
  let signingDate: Date | undefined;
  if (presigned !== null) {
    credential = params.get('X-Amz-Credential') ?? undefined;
    signedHeaders = (params.get('X-Amz-SignedHeaders') ?? '').split(';').filter(Boolean);
    given = presigned;
    signingDate = amzDate(params.get('X-Amz-Date'));
  } else if (authorization) {
    const parts = /^AWS4-HMAC-SHA256 Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]+)$/.exec(
      authorization,
    );
    if (!parts) return { ok: false, status: 400, code: 'InvalidArgument', message: 'Unsupported Authorization Type' };
    [, credential, , given] = parts;
    signedHeaders = parts[2].split(';');
    signingDate = amzDate(request.headers['x-amz-date'] as string | undefined);
  } else {
    return { ok: false, status: 403, code: 'AccessDenied', message: 'Access Denied' };
  }
  const [accessKeyId, , region, service] = (credential ?? '').split('/');
  if (!accessKeyId || !region || service !== 's3' || !signingDate)
    return { ok: false, status: 400, code: 'AuthorizationQueryParametersError', message: 'Invalid credential or date' };

  if (presigned !== null) {
    const expires = Number(params.get('X-Amz-Expires'));
    if (!Number.isInteger(expires) || expires < 1 || expires > MAX_EXPIRES_SECONDS)
      return {
        ok: false,
        status: 400,
        code: 'AuthorizationQueryParametersError',
        message: 'X-Amz-Expires must be between 1 and 604800 seconds',
      };
    if (now.getTime() > signingDate.getTime() + expires * 1000)
      return { ok: false, status: 403, code: 'AccessDenied', message: 'Request has expired' };
    if (signingDate.getTime() > now.getTime() + 15 * 60_000)
      return { ok: false, status: 403, code: 'AccessDenied', message: 'Request is not valid yet' };
    const asSigned = requestAsSigned(request, url, signedHeaders);
    if (!asSigned) return MISMATCH;
    const again = await presigner(accessKeyId, region).presign(asSigned, {
      signingDate,
      expiresIn: expires,
      signingRegion: region,
      signingService: 's3',
      signableHeaders: new Set(signedHeaders),
      unhoistableHeaders: new Set(signedHeaders.filter((name) => name.startsWith('x-amz-'))),
    });
    return again.query?.['X-Amz-Signature'] === given ? { ok: true, accessKeyId } : MISMATCH;
  }

  const asSigned = requestAsSigned(
    request,
    url,
    signedHeaders.filter((name) => name !== 'x-amz-date'),
  );
  if (!asSigned) return MISMATCH;
  // The presigner's own SigV4 signer (private in its typings): header signatures the same way the SDK made them.
  const { signer } = presigner(accessKeyId, region) as unknown as {
    signer: { sign(request: object, options: object): Promise<{ headers: Record<string, string> }> };
  };
  const again = await signer.sign(asSigned, {
    signingDate,
    signingRegion: region,
    signingService: 's3',
    signableHeaders: new Set(signedHeaders),
  });
  const signature = /Signature=([0-9a-f]+)/.exec(String(again.headers.authorization))?.[1];
  return signature === given ? { ok: true, accessKeyId } : MISMATCH;
}
