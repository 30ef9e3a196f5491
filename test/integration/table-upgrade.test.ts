import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { ensureTable } from '../../lib/db/bootstrap';
import { ddb, tableName } from '../../lib/db/client';
import { createTableInput } from '../../lib/db/table';
import { call } from '../fixtures/api';
import { booked, BOOKING_DAY, makeScene, nyTime } from '../fixtures/scheduling';
import { useOwnTable } from '../fixtures/table-stream';

describe("a table kept from before an index was added (npm start's .data/)", () => {
  it('gains the index when the server starts, filled from the items already there', async () => {
    // A table of its own, made as the version before gsi1n made it.
    useOwnTable();
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
  });
});
