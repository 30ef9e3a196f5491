import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHORT_LIVED_JVM, startDynamoLocal } from '../../infra/local/dynamo';
import { resetConfig } from '../../lib/config';
import { ensureTable } from '../../lib/db/bootstrap';
import { ddb, resetDdb, tableName } from '../../lib/db/client';
import { createTableInput } from '../../lib/db/table';
import { call } from '../fixtures/api';
import { booked, BOOKING_DAY, makeScene, nyTime } from '../fixtures/scheduling';

describe("a table kept from before an index was added (npm start's .data/)", () => {
  it('gains the index when the server starts, filled from the items already there', async () => {
    // As `npm start` keeps it: a DynamoDB Local of its own on a data directory, whose table was
    // made by the version before gsi1n (the suite's shared instance is left as it is).
    const dir = mkdtempSync(join(tmpdir(), 'medspa-upgrade-'));
    const dynamo = await startDynamoLocal({ dbPath: dir, jvmArgs: SHORT_LIVED_JVM });
    const saved = { endpoint: process.env.DYNAMODB_ENDPOINT, table: process.env.TABLE_NAME };
    const use = (endpoint: string | undefined, table: string | undefined) => {
      for (const [name, value] of [
        ['DYNAMODB_ENDPOINT', endpoint],
        ['TABLE_NAME', table],
      ] as const)
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      resetConfig();
      resetDdb();
    };
    use(dynamo.endpoint, 't_upgrade');
    try {
      const input = createTableInput(tableName(), { stream: false });
      await ddb().send(
        new CreateTableCommand({
          ...input,
          GlobalSecondaryIndexes: input.GlobalSecondaryIndexes!.filter((index) => index.IndexName !== 'gsi1n'),
        }),
      );
      const scene = await makeScene();
      const id = (await booked(scene, { scheduled_at: nyTime(BOOKING_DAY, '10:00') })).id;
      await ensureTable();
      const list = await call('GET', `/v1/appointments?from=${BOOKING_DAY}&to=${BOOKING_DAY}`, {
        token: scene.practice.adminToken,
      });
      expect(list.status).toBe(200);
      expect(list.body.data.map((item: { id: string }) => item.id)).toEqual([id]);
    } finally {
      use(saved.endpoint, saved.table);
      await dynamo.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
