import { randomUUID } from 'node:crypto';
import type { RequestWrites } from '../db/request-writes';
import { where } from '../db/query';
import { commitNewService, commitServiceChange, type ServiceWriteResult } from '../db/resources';
import { afterUpdate } from '../db/update';
import { AppError } from '../errors';
import { NO_DEPOSIT } from '../domain/deposits';
import { failureOf, type FailureTable } from './failures';
import { checkFormTemplates } from './form-templates';
import type { ServiceRecord } from '../domain/records';
import type { CreateServiceInput, UpdateServiceInput } from '../schemas/resources';
import {
  changeFromCurrent,
  changeResource,
  findResources,
  listResources,
  readResource,
  versionedFailures,
  type Fields,
  type WriteOptions,
} from './resources';

/**
 * Services (API reference, other resources) and their certified providers: a service's
 * `provider_ids` names live providers only, checked in the write's own transaction.
 */

/** Unique provider ids, in order, each a live provider of the practice (else 404 PROVIDER_NOT_FOUND). */
export async function checkProviders(medspaId: string, ids: readonly string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  const found = await findResources('provider', medspaId, unique);
  const missing = unique.find((id) => !found.has(id));
  if (missing !== undefined) throw new AppError('PROVIDER_NOT_FOUND', `Provider ${missing} does not exist`);
  return unique;
}

/** A failed service write: the service's 404 or a stale version, or the deleted provider's 404. */
const SERVICE_WRITE_FAILURES: FailureTable<Exclude<ServiceWriteResult, { ok: true }>> = {
  ...versionedFailures('service'),
  provider: ({ providerId }) => new AppError('PROVIDER_NOT_FOUND', `Provider ${providerId} does not exist`),
};

/** Commits a service change on the version read; the providers it newly certifies must still be live at that moment. */
const commitService =
  (medspaId: string, options: WriteOptions) =>
  async (changes: Partial<Fields<'service'>>, current: ServiceRecord): Promise<ServiceRecord> => {
    const at = options.now.toISOString();
    const newProviderIds = (changes.provider_ids ?? []).filter((id) => !current.provider_ids.includes(id));
    const result = await commitServiceChange(medspaId, current.id, changes, {
      expectedVersion: current.version,
      now: at,
      newProviderIds,
      writes: options.writes,
    });
    if (!result.ok) throw failureOf(SERVICE_WRITE_FAILURES, result);
    return afterUpdate(current, changes, at);
  };

export async function createService(
  medspaId: string,
  input: CreateServiceInput,
  now: Date,
  writes?: RequestWrites,
): Promise<ServiceRecord> {
  const at = now.toISOString();
  const service: ServiceRecord = {
    id: randomUUID(),
    medspa_id: medspaId,
    name: input.name,
    description: input.description ?? null,
    category: input.category ?? null,
    price_cents: input.price_cents,
    duration_minutes: input.duration_minutes,
    buffer_before_minutes: input.buffer_before_minutes,
    buffer_after_minutes: input.buffer_after_minutes,
    active: input.active,
    provider_ids: await checkProviders(medspaId, input.provider_ids ?? []),
    deposit: input.deposit ?? { ...NO_DEPOSIT },
    required_form_template_ids: await checkFormTemplates(medspaId, input.required_form_template_ids ?? []),
    version: 1,
    created_at: at,
    updated_at: at,
  };
  const result = await commitNewService(service, writes);
  if (!result.ok) throw failureOf(SERVICE_WRITE_FAILURES, result);
  return service;
}

export async function changeService(medspaId: string, id: string, changes: UpdateServiceInput, options: WriteOptions) {
  const { provider_ids: providerIds, required_form_template_ids: formIds } = changes;
  if (!providerIds && !formIds) return changeResource('service', medspaId, id, changes, options);
  // The service's own 404 comes before its providers' and templates' (API reference, errors's order): read, then check them.
  return changeFromCurrent(
    'service',
    medspaId,
    id,
    options,
    async () => ({
      ...changes,
      ...(providerIds && { provider_ids: await checkProviders(medspaId, providerIds) }),
      ...(formIds && { required_form_template_ids: await checkFormTemplates(medspaId, formIds) }),
    }),
    commitService(medspaId, options),
  );
}

export const listServices = (medspaId: string, query: { limit: number; cursor?: string; category?: string }) =>
  listResources('service', medspaId, query, where<ServiceRecord>({ category: query.category }));

/** Certifies a provider for a service. Idempotent: an assigned provider leaves the service unchanged. */
export const assignServiceProvider = (
  medspaId: string,
  serviceId: string,
  providerId: string,
  now: Date,
  writes?: RequestWrites,
) =>
  changeFromCurrent(
    'service',
    medspaId,
    serviceId,
    { now, writes },
    async (service) => {
      await readResource('provider', medspaId, providerId);
      return service.provider_ids.includes(providerId) ? null : { provider_ids: [...service.provider_ids, providerId] };
    },
    commitService(medspaId, { now, writes }),
  );

/**
 * Withdraws a certification (a DELETE: honours If-Match on the service and answers the deletion
 * object, the provider's id). Idempotent for a live provider. A deletion withdraws its provider
 * everywhere itself; a deleted provider's id still listed (written before that rule) can still be removed.
 */
export async function unassignServiceProvider(
  medspaId: string,
  serviceId: string,
  providerId: string,
  options: WriteOptions,
) {
  await changeFromCurrent('service', medspaId, serviceId, options, async (service) => {
    if (service.provider_ids.includes(providerId))
      return { provider_ids: service.provider_ids.filter((id) => id !== providerId) };
    await readResource('provider', medspaId, providerId);
    return null;
  });
  return { id: providerId, deleted: true as const };
}
