import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ddb, tableName } from '../../lib/db/client';
import { entityKey } from '../../lib/db/keys';
import { logger } from '../../lib/log';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { makeClient } from '../fixtures/builders';

/** A stored item that is not its kind's record answers 500 INTERNAL_ERROR: no value of it in the answer or the log. */
let practice: TestPractice;
beforeAll(async () => {
  practice = await makePractice();
});

async function expectHiddenFailure(path: string, secret: string) {
  const logged = vi.spyOn(logger, 'error');
  try {
    const response = await call('GET', path, { token: practice.adminToken });
    expect(response.status, JSON.stringify(response.body)).toBe(500);
    expect(response.body.error.code).toBe('INTERNAL_ERROR');
    expect(JSON.stringify(response.body)).not.toContain(secret);
    const lines = JSON.stringify(logged.mock.calls);
    expect(lines).toContain('does not decode as CLIENT');
    expect(lines).not.toContain(secret);
  } finally {
    logged.mockRestore();
  }
}

describe('corrupt and foreign items', () => {
  it('a client whose field holds the wrong type is a 500, not a cast', async () => {
    const client = await makeClient(practice);
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: entityKey(practice.medspaId, 'CLIENT', client.id),
        UpdateExpression: 'SET tags = :tags',
        ExpressionAttributeValues: { ':tags': 'Secret-Tag-4711' },
      }),
    );
    await expectHiddenFailure(`/v1/clients/${client.id}`, 'Secret-Tag-4711');
  });

  it("another kind's item under a client's key is a 500, not a client", async () => {
    const client = await makeClient(practice);
    const key = entityKey(practice.medspaId, 'CLIENT', client.id);
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...key, ...client, entity: 'PROVIDER', full_name: 'Foreign-Name-0815' },
      }),
    );
    await expectHiddenFailure(`/v1/clients/${client.id}`, 'Foreign-Name-0815');
  });
});
