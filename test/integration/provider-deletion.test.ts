import { describe, expect, it } from 'vitest';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { makeProvider, makeService } from '../fixtures/builders';

const getService = async (practice: TestPractice, id: string) => {
  const response = await call('GET', `/v1/services/${id}`, { token: practice.adminToken });
  expect(response.status).toBe(200);
  return response.body.data as {
    id: string;
    version: number;
    name: string;
    provider_ids: string[];
    updated_at: string;
  };
};

const allServices = async (practice: TestPractice) =>
  (await call('GET', '/v1/services?limit=100', { token: practice.adminToken })).body.data as {
    id: string;
    provider_ids: string[];
  }[];

describe('a deleted provider is withdrawn from every service, in the deletion itself', () => {
  it('removes it from each service listing it (version + 1), leaves the others alone, and audits once', async () => {
    const practice = await makePractice();
    const [doomed, kept] = [await makeProvider(practice), await makeProvider(practice)];
    const listing = [
      await makeService(practice, { provider_ids: [doomed.id] }),
      await makeService(practice, { provider_ids: [kept.id, doomed.id] }),
      await makeService(practice, { provider_ids: [doomed.id, kept.id] }),
    ];
    const other = await makeService(practice, { provider_ids: [kept.id] });
    // Certifying a provider is no change of the provider: same version, nothing internal shown.
    const keptNow = (await call('GET', `/v1/providers/${kept.id}`, { token: practice.adminToken })).body.data;
    expect(keptNow).toEqual(kept);

    const deleted = await call('DELETE', `/v1/providers/${doomed.id}`, { token: practice.adminToken });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: doomed.id, deleted: true });

    for (const before of listing) {
      const after = await getService(practice, before.id);
      expect(after.provider_ids).toEqual(before.provider_ids.filter((id: string) => id !== doomed.id));
      expect(after.version).toBe(before.version + 1);
    }
    expect(await getService(practice, other.id)).toEqual(other);
    expect((await call('GET', `/v1/providers/${doomed.id}`, { token: practice.adminToken })).status).toBe(404);

    const log = await call('GET', '/v1/audit-log', { token: practice.adminToken });
    expect(
      log.body.data.filter((e: { request_id: string }) => e.request_id === deleted.headers['x-request-id']),
    ).toEqual([
      expect.objectContaining({ operation: 'deleteProvider', resource_id: doomed.id, outcome: 'success', status: 200 }),
    ]);
  });

  it('a stale If-Match deletes nothing and withdraws nothing', async () => {
    const practice = await makePractice();
    const provider = await makeProvider(practice);
    const service = await makeService(practice, { provider_ids: [provider.id] });
    const stale = await call('DELETE', `/v1/providers/${provider.id}`, {
      token: practice.adminToken,
      headers: { 'if-match': '"9"' },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('VERSION_CONFLICT');
    expect(await getService(practice, service.id)).toEqual(service);
    expect(
      (
        await call('DELETE', `/v1/providers/${provider.id}`, {
          token: practice.adminToken,
          headers: { 'if-match': '"1"' },
        })
      ).status,
    ).toBe(200);
    expect((await getService(practice, service.id)).provider_ids).toEqual([]);
    // Deleting again is the provider's 404, as for any hidden resource.
    expect((await call('DELETE', `/v1/providers/${provider.id}`, { token: practice.adminToken })).body.error.code).toBe(
      'PROVIDER_NOT_FOUND',
    );
  });

  it('racing edits of its services: the deletion retries on fresh versions and every edit survives', async () => {
    const practice = await makePractice();
    const provider = await makeProvider(practice);
    const services = await Promise.all(
      Array.from({ length: 4 }, () => makeService(practice, { provider_ids: [provider.id] })),
    );
    const [deletion, ...renames] = await Promise.all([
      call('DELETE', `/v1/providers/${provider.id}`, { token: practice.adminToken }),
      ...services.flatMap((service) =>
        [1, 2].map((n) =>
          call('PATCH', `/v1/services/${service.id}`, {
            token: practice.adminToken,
            body: { name: `${service.name} v${n}` },
          }),
        ),
      ),
    ]);
    expect(deletion.status, JSON.stringify(deletion.body)).toBe(200);
    expect(renames.map((r) => r.status)).toEqual(renames.map(() => 200));
    for (const service of services) {
      const after = await getService(practice, service.id);
      expect(after.provider_ids).toEqual([]);
      expect(after.name).toMatch(/ v[12]$/);
      expect(after.version).toBe(service.version + 3);
    }
  });

  it('racing certifications: a provider deleted at the same moment ends up certified for nothing', async () => {
    const practice = await makePractice();
    for (let round = 0; round < 6; round += 1) {
      const provider = await makeProvider(practice);
      const services = await Promise.all(Array.from({ length: 3 }, () => makeService(practice)));
      const [deletion, ...assignments] = await Promise.all([
        call('DELETE', `/v1/providers/${provider.id}`, { token: practice.adminToken }),
        ...services.map((service) =>
          call('POST', `/v1/services/${service.id}/providers`, {
            token: practice.adminToken,
            body: { provider_id: provider.id },
          }),
        ),
        call('PATCH', `/v1/services/${services[0].id}`, {
          token: practice.adminToken,
          body: { provider_ids: [provider.id] },
        }),
        call('POST', '/v1/services', {
          token: practice.adminToken,
          body: { name: `New ${round}`, price_cents: 100, duration_minutes: 30, provider_ids: [provider.id] },
        }),
      ]);
      expect(deletion.status).toBe(200);
      for (const response of assignments) {
        expect([200, 201, 404]).toContain(response.status);
        if (response.status === 404) expect(response.body.error.code).toBe('PROVIDER_NOT_FOUND');
      }
      expect((await allServices(practice)).filter((service) => service.provider_ids.includes(provider.id))).toEqual([]);
    }
  });
});
