import { createHash } from 'node:crypto';
import type { HoldRecord } from '../domain/records';
import { tableName } from './client';
import { holdCodec, holdIpLedgerCodec } from './codecs';
import { readItem, readItems, itemId } from './key-reads';
import { holdIpLedgerKey, holdKey, type Key } from './keys';
import type { TransactItem } from './transact';
import { newItemAction } from './put-new';

/**
 * Holds (API reference, holds): the hold item, written in one transaction with its claims (the
 * same bucket writes as an appointment's: lib/db/appointments.ts `commitWithClaims`), and a client
 * IP's ledger of active public holds, the per-IP limit as a condition in the hold's transaction.
 */

export const getHold = async (medspaId: string, id: string): Promise<HoldRecord | null> =>
  holdCodec.fromItem(await readItem(holdKey(medspaId, id)));

/** A new hold's item: its id is new, so it must not exist. */
export const holdPutAction = (hold: HoldRecord): TransactItem => newItemAction(holdCodec.toItem(hold));

/**
 * An active hold leaves `active` (confirmed with its appointment, or released): on condition it
 * is still active and, for a confirm, not expired at `notExpiredAt` (an ISO instant; the stored
 * one is of the same form, so the strings compare as the instants do).
 */
export function holdTransitionAction(
  medspaId: string,
  id: string,
  to: { status: 'confirmed'; appointment_id: string; notExpiredAt: string } | { status: 'released' },
  now: string,
): TransactItem {
  const expiry = to.status === 'confirmed';
  return {
    Update: {
      TableName: tableName(),
      Key: holdKey(medspaId, id),
      UpdateExpression: `SET #status = :to, #updated = :now${expiry ? ', #appointment = :appointment' : ''} ADD #version :one`,
      ConditionExpression: `#status = :active${expiry ? ' AND #expires > :at' : ''}`,
      ExpressionAttributeNames: {
        '#status': 'status',
        '#updated': 'updated_at',
        '#version': 'version',
        ...(expiry ? { '#appointment': 'appointment_id', '#expires': 'hold_expires_at' } : {}),
      },
      ExpressionAttributeValues: {
        ':to': to.status,
        ':now': now,
        ':one': 1,
        ':active': 'active',
        ...(expiry ? { ':appointment': to.appointment_id, ':at': to.notExpiredAt } : {}),
      },
    },
  };
}

// ---- The per-IP limit of public holds ----------------------------------------------------------

/** A client IP as stored: hashed with its practice, never the address itself. */
export const ipHashOf = (medspaId: string, ip: string) =>
  createHash('sha256').update(`${medspaId}|${ip}`).digest('base64url');

/** A client IP's ledger as read: `version` null when it does not exist yet. */
export interface HoldIpLedger {
  version: number | null;
  holds: Record<string, string>;
}

/** The ledger of this hashed IP, read strongly (the new hold's transaction conditions on its version). */
export async function readHoldIpLedger(medspaId: string, ipHash: string): Promise<HoldIpLedger> {
  const key: Key = holdIpLedgerKey(medspaId, ipHash);
  const found = await readItems([key]);
  const record = holdIpLedgerCodec.fromItem(found.get(itemId(key)));
  return record ? { version: record.version, holds: record.holds } : { version: null, holds: {} };
}

/** The whole ledger as decided (the holds still active plus the new one), on condition it is still the version read. */
export const holdIpBookAction = (
  medspaId: string,
  ipHash: string,
  read: HoldIpLedger,
  holds: Record<string, string>,
): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: holdIpLedgerCodec.toItem({ medspa_id: medspaId, ip_hash: ipHash, holds, version: (read.version ?? 0) + 1 }),
    ...(read.version === null
      ? { ConditionExpression: 'attribute_not_exists(pk)' }
      : {
          ConditionExpression: '#version = :read',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':read': read.version },
        }),
  },
});

/** A public hold released or confirmed gives its IP's place back at once (the ledger exists: its hold wrote it). */
export const holdIpReleaseAction = (medspaId: string, ipHash: string, holdId: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: holdIpLedgerKey(medspaId, ipHash),
    UpdateExpression: 'REMOVE #holds.#id ADD #version :one',
    ConditionExpression: 'attribute_exists(#holds)',
    ExpressionAttributeNames: { '#holds': 'holds', '#id': holdId, '#version': 'version' },
    ExpressionAttributeValues: { ':one': 1 },
  },
});
