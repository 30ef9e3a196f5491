import { clientSearchTerms } from '../domain/client-search';
import type { Membership } from '../domain/membership';
import type { ClientRecord } from '../domain/records';
import { tableName } from './client';
import { indexPut } from './clients';
import { entityKey } from './keys';
import type { NamedAction, TransactItem } from './transact';
import { versionedUpdate } from './update';

/**
 * A client's membership fields as a membership plan's sale or status move sets them
 * (lib/domain/membership.ts), written in that plan write's own transaction.
 */

export type MembershipAction = 'client' | 'clientIndex';

/**
 * The client's new membership, on the version read (so a PATCH, a deletion or another plan's
 * write in between fails it: read again and decide again), bumping its version like any change
 * of the client (so `client.updated` goes out, as for a PATCH). When the status moves, its search
 * entries (which filter by membership) are rewritten with it. A sale's payment raises the spend
 * here too: one transaction may act on the client item only once.
 */
export function clientMembershipWrites(
  client: ClientRecord,
  membership: Membership,
  now: string,
  spentCents = 0,
): NamedAction<MembershipAction>[] {
  const update = versionedUpdate(
    { ...membership },
    { expectedVersion: client.version, now, condition: 'attribute_not_exists(deleted_at)' },
  );
  const spend = spentCents > 0;
  const action: TransactItem = {
    Update: {
      TableName: tableName(),
      Key: entityKey(client.medspa_id, 'CLIENT', client.id),
      ...update,
      UpdateExpression: spend ? `${update.UpdateExpression} ADD #spent :spent` : update.UpdateExpression,
      ExpressionAttributeNames: { ...update.ExpressionAttributeNames, ...(spend && { '#spent': 'total_spent_cents' }) },
      ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ...(spend && { ':spent': spentCents }) },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
  const terms = membership.membership_status === client.membership_status ? [] : clientSearchTerms(client);
  const index = { terms, membershipStatus: membership.membership_status };
  return [
    { name: 'client', action },
    ...terms.map((term) => ({
      name: 'clientIndex' as const,
      action: indexPut(client.medspa_id, client.id, index, term),
    })),
  ];
}

/**
 * That `planId` does not govern the client (a status move of a plan that does not govern must
 * not commit after a cancel promoted it meanwhile); ALL_OLD so a failure can be told apart.
 */
export const notGovernedBy = (client: Pick<ClientRecord, 'medspa_id' | 'id'>, planId: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: entityKey(client.medspa_id, 'CLIENT', client.id),
    ConditionExpression: 'attribute_not_exists(#plan) OR attribute_type(#plan, :null) OR #plan <> :plan',
    ExpressionAttributeNames: { '#plan': 'membership_plan_id' },
    ExpressionAttributeValues: { ':plan': planId, ':null': 'NULL' },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  },
});
