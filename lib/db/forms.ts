import type { PageRequest } from '../crypto/cursor';
import type {
  ClientFormsSummaryRecord,
  ConsentRecord,
  FormSubmissionRecord,
  FormsCatalogRecord,
  FormTemplateRecord,
} from '../domain/records';
import { getEntity } from './batch';
import { tableName } from './client';
import {
  CATALOG_ENTRY_PREFIX,
  consentCodec,
  formsCatalogCodec,
  formsSummaryCodec,
  formSubmissionCodec,
  formTemplateCodec,
  formTemplateVersionCodec,
  SUMMARY_ENTRY_PREFIX,
} from './codecs';
import { DataFailure } from './failure';
import { itemId, readItem, readItems } from './key-reads';
import {
  clientFormSubmissionsIndexPk,
  entityKey,
  formsCatalogKey,
  formsSummaryKey,
  formTemplateVersionKey,
} from './keys';
import { newItemAction } from './put-new';
import { listEntities, queryPage, type Page } from './query';
import type { RequestWrites } from './request-writes';
import { firstFailed, transact, type NamedAction, type TransactItem } from './transact';

/**
 * Forms (section 14, docs/decisions/0029). A template write is one transaction: its current item
 * (conditioned on the version read), its version item (written once) and its catalog entry. A
 * submission is one transaction: the submission, its client's liveness, its client's summary (the
 * latest expiry per template, kept the maximum by a condition) and, for a consent form, the consent.
 */

/** The template's catalog entry, set without reading the catalog (it may not exist yet). */
function catalogAction(template: FormTemplateRecord): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: formsCatalogKey(template.medspa_id),
      UpdateExpression: 'SET #entity = :entity, medspa_id = :medspa, #entry = :entry',
      ExpressionAttributeNames: { '#entity': 'entity', '#entry': `${CATALOG_ENTRY_PREFIX}${template.id}` },
      ExpressionAttributeValues: {
        ':entity': formsCatalogCodec.entity,
        ':medspa': template.medspa_id,
        ':entry': {
          name: template.name,
          version: template.version,
          valid_days: template.valid_days,
          active: template.active,
        },
      },
    },
  };
}

type TemplateAction = NamedAction<'current' | 'version' | 'catalog'>;

/** Writes a template version: new (version 1) or on top of `expectedVersion`; `stale` when another write got there first. */
export async function commitTemplate(
  template: FormTemplateRecord,
  expectedVersion: number | null,
  writes?: RequestWrites,
): Promise<{ ok: true } | { ok: false; failed: 'stale' }> {
  const current = formTemplateCodec.toItem(template);
  const actions: TemplateAction[] = [
    {
      name: 'current',
      action:
        expectedVersion === null
          ? newItemAction(current)
          : {
              Put: {
                TableName: tableName(),
                Item: current,
                ConditionExpression: '#version = :read',
                ExpressionAttributeNames: { '#version': 'version' },
                ExpressionAttributeValues: { ':read': expectedVersion },
              },
            },
    },
    { name: 'version', action: newItemAction(formTemplateVersionCodec.toItem(template)) },
    { name: 'catalog', action: catalogAction(template) },
  ];
  const outcome = await transact(actions, writes);
  if (outcome.ok) return outcome;
  if (firstFailed(outcome.failed, ['current', 'version'])) return { ok: false, failed: 'stale' };
  throw new DataFailure('collision', `form template ${template.id} could not be written`);
}

export const findTemplate = (medspaId: string, id: string) => getEntity(formTemplateCodec, medspaId, id);

export const findTemplateVersion = async (medspaId: string, id: string, version: number) =>
  formTemplateVersionCodec.fromItem(await readItem(formTemplateVersionKey(medspaId, id, version)));

/** Current templates by id, read in one batch (absent ones left out). */
export async function findTemplates(
  medspaId: string,
  ids: readonly string[],
): Promise<Map<string, FormTemplateRecord>> {
  const keys = ids.map((id) => entityKey(medspaId, 'FORM_TEMPLATE', id));
  const found = await readItems(keys);
  const templates = new Map<string, FormTemplateRecord>();
  for (const key of keys) {
    const template = formTemplateCodec.fromItem(found.get(itemId(key)));
    if (template) templates.set(template.id, template);
  }
  return templates;
}

export const listTemplates = (medspaId: string, page: PageRequest): Promise<Page<FormTemplateRecord>> =>
  listEntities(formTemplateCodec, medspaId, page);

/** The client's summary entry for the submission's template: only ever raised (a later expiry wins). */
function summaryAction(submission: FormSubmissionRecord, expiry: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: formsSummaryKey(submission.medspa_id, submission.client_id),
      UpdateExpression: 'SET #entity = :entity, medspa_id = :medspa, client_id = :client, #expiry = :expiry',
      ConditionExpression: 'attribute_not_exists(#expiry) OR #expiry < :expiry',
      ExpressionAttributeNames: { '#entity': 'entity', '#expiry': `${SUMMARY_ENTRY_PREFIX}${submission.template_id}` },
      ExpressionAttributeValues: {
        ':entity': formsSummaryCodec.entity,
        ':medspa': submission.medspa_id,
        ':client': submission.client_id,
        ':expiry': expiry,
      },
    },
  };
}

type SubmissionAction = NamedAction<'submission' | 'client' | 'summary' | 'consent'>;

/**
 * Stores a submission (and its consent) while its client is live, raising the client's summary
 * entry to `expiry` unless it already holds a later one: then sent again without that update
 * (the summary keeps the maximum whatever the order of concurrent submissions).
 */
export async function putSubmission(
  submission: FormSubmissionRecord,
  expiry: string,
  consent: ConsentRecord | null,
  writes?: RequestWrites,
): Promise<{ ok: true } | { ok: false; failed: 'client' }> {
  const base: SubmissionAction[] = [
    { name: 'submission', action: newItemAction(formSubmissionCodec.toItem(submission)) },
    {
      name: 'client',
      action: {
        ConditionCheck: {
          TableName: tableName(),
          Key: entityKey(submission.medspa_id, 'CLIENT', submission.client_id),
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleted_at)',
        },
      },
    },
    ...(consent ? [{ name: 'consent' as const, action: newItemAction(consentCodec.toItem(consent)) }] : []),
  ];
  let raise = true;
  for (;;) {
    const actions = raise ? [...base, { name: 'summary' as const, action: summaryAction(submission, expiry) }] : base;
    const outcome = await transact(actions, writes);
    if (outcome.ok) return outcome;
    if (firstFailed(outcome.failed, ['client'])) return { ok: false, failed: 'client' };
    if (raise && firstFailed(outcome.failed, ['summary'])) {
      raise = false;
      continue;
    }
    throw new DataFailure('collision', `form submission ${submission.id} already exists`);
  }
}

export const findSubmission = (medspaId: string, id: string) => getEntity(formSubmissionCodec, medspaId, id);

/** A page of a client's submissions, newest first, with `total`. */
export const listSubmissionsOf = (
  medspaId: string,
  clientId: string,
  page: PageRequest,
): Promise<Page<FormSubmissionRecord>> =>
  queryPage(formSubmissionCodec, {
    index: 'gsi2',
    partition: clientFormSubmissionsIndexPk(medspaId, clientId),
    ...page,
    descending: true,
  });

/**
 * Readiness's two items, the practice's catalog and the client's summary, as read (each empty when
 * never written). Asked for in the same tick as other reads by key, they share one BatchGetItem
 * (lib/db/key-reads.ts): the appointment detail reads them with its client and service.
 */
export async function readReadiness(
  medspaId: string,
  clientId: string,
): Promise<{ catalog: FormsCatalogRecord; summary: ClientFormsSummaryRecord }> {
  const catalogKey = formsCatalogKey(medspaId);
  const summaryKey = formsSummaryKey(medspaId, clientId);
  const found = await readItems([catalogKey, summaryKey]);
  return {
    catalog: formsCatalogCodec.fromItem(found.get(itemId(catalogKey))) ?? { medspa_id: medspaId, templates: {} },
    summary: formsSummaryCodec.fromItem(found.get(itemId(summaryKey))) ?? {
      medspa_id: medspaId,
      client_id: clientId,
      latest_expiry: {},
    },
  };
}
