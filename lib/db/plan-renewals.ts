import type { ClientPlanRecord, PlanBalanceRecord, PlanLedgerRecord } from '../domain/records';
import { clientPlanCodec, planSweepCodec } from './codecs';
import { plansDueIndexPk, planSweepCheckpointKey } from './keys';
import { balanceStepsAction, ledgerPutAction } from './plans';
import { sweepCheckpoint } from './minute-partitions';
import { queryAll } from './query';
import { transact, type NamedAction, type TransactItem } from './transact';

/**
 * The plan sweep's reads and writes (docs/decisions/0026): the client plans due in one hour
 * partition of the due index (gsi1), the sweep's checkpoint, and a renewal or expiry as ONE
 * transaction on the versions read.
 */

/** The client plans on the due index in one UTC hour, all practices: one Query (eventually consistent: the sweep reads each again). */
export const plansDueIn = (hour: string): Promise<ClientPlanRecord[]> =>
  queryAll(clientPlanCodec, { index: 'gsi1', partition: plansDueIndexPk(hour) });

const planSweep = /* @__PURE__ */ sweepCheckpoint(planSweepCodec, planSweepCheckpointKey);
export const readPlanSweepCheckpoint = planSweep.read;
export const advancePlanSweepCheckpoint = planSweep.advance;

/** The entries a renewal or expiry writes against one balance (its expire, then its grant). */
export interface BalanceMove {
  balance: PlanBalanceRecord;
  entries: PlanLedgerRecord[];
}

/**
 * A renewal or expiry in ONE transaction: the plan's change (conditioned on the version read, so
 * of two sweeps at once, or one run twice, exactly one commits), each balance's step on its
 * version and the ledger entries. False when anything moved since the read (nothing written).
 */
export async function commitPlanChange(planWrites: TransactItem[], moves: readonly BalanceMove[]): Promise<boolean> {
  const actions: NamedAction[] = [
    ...planWrites.map((action) => ({ name: 'plan', action })),
    ...moves.flatMap(({ balance, entries }) => [
      { name: 'balance', action: balanceStepsAction(balance, entries) },
      ...entries.map((entry) => ({ name: 'ledger', action: ledgerPutAction(entry) })),
    ]),
  ];
  return (await transact(actions)).ok;
}
