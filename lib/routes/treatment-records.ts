import { ALLOW } from '../auth/roles';
import { defineRoutes, list, route } from '../http/route';
import { IdParams, PageQuery } from '../schemas/common';
import * as rec from '../schemas/treatment-records';

/** Sign and lock, amendments, versions (API reference, clinical records); the PUT is section 4's `recordTreatment`. */

export const getTreatmentRecord = /* @__PURE__ */ route('getTreatmentRecord', () => ({
  method: 'GET',
  path: '/v1/appointments/{id}/treatment-record',
  group: 'treatment-records',
  summary: 'The current treatment record, draft or signed (404 APPOINTMENT_NOT_FOUND when there is none)',
  auth: ALLOW.readAll,
  params: IdParams,
  response: rec.TreatmentRecord,
  errors: ['APPOINTMENT_NOT_FOUND'],
  reads: ['appointments'],
}));

export const signTreatmentRecord = /* @__PURE__ */ route('signTreatmentRecord', () => ({
  method: 'POST',
  path: '/v1/appointments/{id}/treatment-record/sign',
  group: 'treatment-records',
  successStatus: 200,
  summary: 'Sign the draft: revision 1, read-only from now on (changes only by amendment)',
  auth: ALLOW.treatmentRecords,
  params: IdParams,
  response: rec.TreatmentRecord,
  ifMatch: true,
  errors: ['APPOINTMENT_NOT_FOUND', 'RECORD_LOCKED', 'VERSION_CONFLICT'],
  writes: { appointments: ['put'] },
  reads: ['appointments'],
}));

export const amendTreatmentRecord = /* @__PURE__ */ route('amendTreatmentRecord', () => ({
  method: 'POST',
  path: '/v1/appointments/{id}/treatment-record/amendments',
  group: 'treatment-records',
  summary:
    'Amend a signed record: revision n + 1, signed by the caller, with its reason; stock moves by the difference',
  auth: ALLOW.treatmentRecords,
  params: IdParams,
  body: rec.AmendmentBody,
  response: rec.TreatmentRecord,
  ifMatch: true,
  errors: ['APPOINTMENT_NOT_FOUND', 'CONFLICT', ...rec.RECORD_STOCK_ERRORS],
  writes: rec.RECORD_STOCK_WRITES,
  reads: rec.RECORD_STOCK_READS,
}));

export const listTreatmentRecordVersions = /* @__PURE__ */ route('listTreatmentRecordVersions', () => ({
  method: 'GET',
  path: '/v1/appointments/{id}/treatment-record/versions',
  group: 'treatment-records',
  summary: 'Every signed revision of the treatment record, oldest first (drafts are not revisions)',
  auth: ALLOW.readAll,
  params: IdParams,
  query: PageQuery,
  response: list(rec.TreatmentRecord),
  errors: ['APPOINTMENT_NOT_FOUND'],
  reads: ['appointments'],
}));

export const treatmentRecordRoutes = /* @__PURE__ */ defineRoutes({
  getTreatmentRecord,
  signTreatmentRecord,
  amendTreatmentRecord,
  listTreatmentRecordVersions,
});
