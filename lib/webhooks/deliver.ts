import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Webhook } from 'standardwebhooks';
import type { ContractEvent } from '../events/types';
import { pinnedLookup, resolveTarget, type Lookup } from './address';

/**
 * One delivery attempt (API reference, webhooks and events): POST the event as JSON, signed the Standard Webhooks way, to
 * the validated address, within a total time limit. Every way a receiver can misbehave (hang,
 * redirect, error status, closed socket, endless body) is a failed attempt, never an exception.
 */

export interface AttemptOutcome {
  ok: boolean;
  response_status: number | null;
  duration_ms: number;
  /** Why it failed, in a few words (never the URL, a body or a secret); null on success. */
  error: string | null;
}

export interface SendInput {
  url: string;
  event: ContractEvent;
  /** Signing secrets, the current one first; a rotated-away one while it is still valid. */
  secrets: readonly string[];
  /** The attempt's time: `webhook-timestamp` and the signatures use it. */
  now: Date;
  allowLocal: boolean;
  /** Total budget: resolve, connect, send, and the whole response. */
  timeoutMs: number;
  lookup?: Lookup;
}

/** Enough of a response to see it was received; the rest is not read. */
export const MAX_RESPONSE_BYTES = 64 * 1024;
export const USER_AGENT = 'medspa-api-webhooks/1.0 (+https://www.standardwebhooks.com)';

/**
 * `webhook-signature`: one `v1,<base64>` per secret, space-separated (the scheme lets a receiver
 * accept any), so a receiver still holding the previous secret verifies during the 24 h overlap.
 */
export const signatureHeader = (secrets: readonly string[], messageId: string, at: Date, payload: string) =>
  secrets.map((secret) => new Webhook(secret).sign(messageId, at, payload)).join(' ');

/** Node's error codes, said briefly. */
function describeError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'connection closed by the receiver';
    case 'ETIMEDOUT':
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return 'receiver unreachable';
    default:
      if (error.code?.startsWith('ERR_TLS') || /CERT|SSL/.test(error.code ?? '')) return `TLS error (${error.code})`;
      return error.code ? `request failed (${error.code})` : 'request failed';
  }
}

export async function sendWebhook(input: SendInput): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const fail = (error: string, status: number | null = null): AttemptOutcome => ({
    ok: false,
    response_status: status,
    duration_ms: elapsed(),
    error,
  });

  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), input.timeoutMs);
  });
  const timeoutMessage = `no complete response within ${input.timeoutMs / 1000} s`;
  try {
    // The lookup itself cannot be cancelled, but the attempt stops waiting for it at the deadline.
    const target = await Promise.race([
      resolveTarget(input.url, { allowLocal: input.allowLocal, lookup: input.lookup }),
      deadline,
    ]);
    if (target === 'timeout') return fail(timeoutMessage);
    if (!target.ok) return fail(`url ${target.problem}`);

    const payload = JSON.stringify(input.event);
    const headers = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(payload)),
      'user-agent': USER_AGENT,
      'webhook-id': input.event.id,
      'webhook-timestamp': String(Math.floor(input.now.getTime() / 1000)),
      'webhook-signature': signatureHeader(input.secrets, input.event.id, input.now, payload),
    };
    const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;

    let req: ClientRequest | undefined;
    const exchange = new Promise<AttemptOutcome>((resolve) => {
      let settled = false;
      const settle = (outcome: AttemptOutcome) => {
        if (settled) return;
        settled = true;
        resolve(outcome);
        req?.destroy();
      };
      // A fresh connection per attempt (no pooled socket), to the pinned addresses only.
      req = send(target.url, {
        method: 'POST',
        headers,
        agent: false,
        lookup: pinnedLookup(target.addresses) as never,
      });
      req.on('error', (error) => settle(fail(describeError(error as NodeJS.ErrnoException))));
      req.on('response', (response: IncomingMessage) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) return settle(fail(`redirect (HTTP ${status}) not followed`, status));
        if (status < 200 || status >= 300) return settle(fail(`HTTP ${status}`, status));
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES)
            settle(fail(`response body over ${MAX_RESPONSE_BYTES / 1024} KiB`, status));
        });
        response.on('end', () => settle({ ok: true, response_status: status, duration_ms: elapsed(), error: null }));
        response.on('error', () => settle(fail('connection closed during the response', status)));
        response.on('close', () => settle(fail('connection closed during the response', status)));
      });
      req.end(payload);
    });
    const outcome = await Promise.race([exchange, deadline]);
    if (outcome === 'timeout') {
      req?.destroy();
      return fail(timeoutMessage);
    }
    return outcome;
  } catch (error) {
    // Nothing above should throw; if it does, the attempt failed (and the worker lives on).
    return fail(describeError(error as NodeJS.ErrnoException));
  } finally {
    clearTimeout(timer);
  }
}
