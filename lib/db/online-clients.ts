import { createHash } from 'node:crypto';
import type { OnlineLedgerRecord } from '../domain/records';
import { tableName } from './client';
import { LEDGER_ENTRY_PREFIX, onlineEmailCodec, onlineLedgerCodec } from './codecs';
import { onlineEmailKey, onlineLedgerKey, type Key } from './keys';
import type { TransactItem } from './transact';

/**
 * Online booking's rules as conditional writes in the booking's own transaction (API reference,
 * online booking): one client per email (the email item, created once) and the per-client limit
 * (the client's ledger of online bookings, conditioned on the version read). Every other write
 * that adds, moves or ends an online booking keeps the ledger in its own transaction.
 */

/** How an email is keyed: normalised (trimmed, lowercase, as the match is case-insensitive), then hashed. */
const emailHashOf = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');

export const onlineEmailKeyOf = (medspaId: string, email: string): Key => onlineEmailKey(medspaId, emailHashOf(email));
export { onlineLedgerKey };

/** The client an email item names, or null when it does not exist. */
export const emailOwnerOf = (item: Record<string, unknown> | undefined): string | null =>
  onlineEmailCodec.fromItem(item)?.client_id ?? null;

/** A client's ledger as read: `version` null when it does not exist yet. */
export interface OnlineLedger {
  version: number | null;
  ends: Record<string, string>;
}

/** A client that has never booked online (or a new one) has no ledger item yet. */
export const NO_LEDGER: OnlineLedger = { version: null, ends: {} };

export function ledgerOf(item: Record<string, unknown> | undefined): OnlineLedger {
  const record = onlineLedgerCodec.fromItem(item);
  return record ? { version: record.version, ends: record.ends } : NO_LEDGER;
}

/**
 * The email item's part of a booking as `clientId`: created when absent, pointed elsewhere only if
 * it still names the client read (whose record is gone or no longer has this email), or checked
 * to still name it. Whichever, a booking that decided on a stale read fails its transaction and
 * decides again.
 */
export function emailOwnerAction(medspaId: string, email: string, read: string | null, clientId: string): TransactItem {
  if (read === clientId) {
    return {
      ConditionCheck: {
        TableName: tableName(),
        Key: onlineEmailKeyOf(medspaId, email),
        ConditionExpression: 'client_id = :read',
        ExpressionAttributeValues: { ':read': read },
      },
    };
  }
  return {
    Put: {
      TableName: tableName(),
      Item: onlineEmailCodec.toItem({ medspa_id: medspaId, email_hash: emailHashOf(email), client_id: clientId }),
      ConditionExpression: read === null ? 'attribute_not_exists(pk)' : 'client_id = :read',
      ...(read === null ? {} : { ExpressionAttributeValues: { ':read': read } }),
    },
  };
}

/**
 * A public booking's ledger write: the whole ledger as decided (the entries still live plus the
 * new one), on condition it is still the version read. Expired entries go with it.
 */
export function ledgerBookAction(
  medspaId: string,
  clientId: string,
  read: OnlineLedger,
  ends: Record<string, string>,
): TransactItem {
  const record: OnlineLedgerRecord = {
    medspa_id: medspaId,
    client_id: clientId,
    ends,
    version: (read.version ?? 0) + 1,
  };
  return {
    Put: {
      TableName: tableName(),
      Item: onlineLedgerCodec.toItem(record),
      ...(read.version === null
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : {
            ConditionExpression: '#version = :read',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':read': read.version },
          }),
    },
  };
}

/**
 * An online booking added or moved by any other write (a staff create with `source: online`, a
 * move): its entry set to its end, unconditionally (the staff's own rules decided). The version
 * grows, so a public booking that read the ledger before decides again.
 */
export const ledgerTrackAction = (
  medspaId: string,
  clientId: string,
  appointmentId: string,
  end: string,
): TransactItem =>
  ledgerUpdate(
    medspaId,
    clientId,
    'SET #entry = :end, #medspa = :medspa, #client = :client, #entity = :entity',
    appointmentId,
    { ':end': end },
  );

/** An online booking that stops holding time (cancelled, completed, no-show, deleted): its entry removed. */
export const ledgerReleaseAction = (medspaId: string, clientId: string, appointmentId: string): TransactItem =>
  ledgerUpdate(
    medspaId,
    clientId,
    'SET #medspa = :medspa, #client = :client, #entity = :entity REMOVE #entry',
    appointmentId,
    {},
  );

function ledgerUpdate(
  medspaId: string,
  clientId: string,
  expression: string,
  appointmentId: string,
  values: Record<string, unknown>,
): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: onlineLedgerKey(medspaId, clientId),
      UpdateExpression: `${expression} ADD #version :one`,
      ExpressionAttributeNames: {
        '#entry': `${LEDGER_ENTRY_PREFIX}${appointmentId}`,
        '#medspa': 'medspa_id',
        '#client': 'client_id',
        '#entity': 'entity',
        '#version': 'version',
      },
      ExpressionAttributeValues: {
        ...values,
        ':medspa': medspaId,
        ':client': clientId,
        ':entity': onlineLedgerCodec.entity,
        ':one': 1,
      },
    },
  };
}
