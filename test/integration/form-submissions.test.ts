import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb, tableName } from '../../lib/db/client';
import { entityKey } from '../../lib/db/keys';
import { NO_SUCH_ID } from '../../lib/schemas/common';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { makeClient } from '../fixtures/builders';
import { makeFormTemplate } from '../fixtures/forms';
import { integratorHash } from '../fixtures/jcs';
import { BOOKING_DAY, booked, makeScene, nyTime, type Scene } from '../fixtures/scheduling';
import { eventTap } from '../fixtures/stream';
import { useTableStream } from '../fixtures/table-stream';

// consent.signed is read from the table's own stream.
useTableStream();

/** Form submissions: answers, signatures, the document hash, pinning, the consent they record (API reference, section 14). */

const expectError = (response: { status: number; body: any }, status: number, code: string) => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error.code).toBe(code);
};

let scene: Scene;
let practice: TestPractice;
const tap = eventTap();
beforeAll(async () => {
  scene = await makeScene();
  practice = scene.practice;
});

const admin = () => ({ token: practice.adminToken });
const submit = (clientId: string, body: object, token = practice.adminToken) =>
  call('POST', `/v1/clients/${clientId}/form-submissions`, { token, body });
const version = async (templateId: string, n: number) =>
  (await call('GET', `/v1/form-templates/${templateId}/versions/${n}`, admin())).body.data;

describe('form submissions', () => {
  it('stores the answers pinned to the current version, with a hash an integrator recomputes and an expiry', async () => {
    const template = await makeFormTemplate(practice, {
      fields: [
        { key: 'allergies', label: 'Allergies', type: 'text', required: true },
        { key: 'areas', label: 'Areas', type: 'multiselect', options: ['Forehead', 'Glabella'] },
        { key: 'born', label: 'Born', type: 'date' },
      ],
      valid_days: 30,
    });
    const answers = { allergies: 'Latex', areas: ['Glabella'], born: '1990-05-01' };
    const created = await submit(scene.client.id, { template_id: template.id, answers });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const submission = created.body.data;
    expect(submission).toMatchObject({
      client_id: scene.client.id,
      template_id: template.id,
      template_version: 1,
      answers,
      signature: null,
      source: 'staff',
      appointment_id: null,
      version: 1,
    });
    expect(submission).not.toHaveProperty('client_ip');
    expect(submission).not.toHaveProperty('user_agent');
    expect(Date.parse(submission.expires_at) - Date.parse(submission.submitted_at)).toBe(30 * 86_400_000);
    expect(submission.document_sha256).toBe(integratorHash(await version(template.id, 1), answers, null));

    expect((await call('GET', `/v1/form-submissions/${submission.id}`, admin())).body.data).toEqual(submission);
    const never = await makeFormTemplate(practice, { fields: [] });
    const forever = await submit(scene.client.id, { template_id: never.id, answers: {} });
    expect(forever.body.data.expires_at).toBeNull();
  });

  it('a template changed while the client filled it: the answers are checked against, and pin, the version current at submission', async () => {
    const template = await makeFormTemplate(practice, {
      fields: [{ key: 'allergies', label: 'Allergies', type: 'text', required: true }],
    });
    // The client reads version 1 ...
    const filledOnV1 = { allergies: 'None' };
    // ... while the practice adds an optional question (version 2).
    const v2 = await call('PATCH', `/v1/form-templates/${template.id}`, {
      ...admin(),
      body: {
        fields: [
          { key: 'allergies', label: 'Any allergies?', type: 'text', required: true },
          { key: 'smoker', label: 'Smoker', type: 'boolean' },
        ],
      },
    });
    expect(v2.body.data.version).toBe(2);
    const pinned = await submit(scene.client.id, { template_id: template.id, answers: filledOnV1 });
    expect(pinned.status, JSON.stringify(pinned.body)).toBe(201);
    expect(pinned.body.data.template_version).toBe(2);
    expect(pinned.body.data.document_sha256).toBe(integratorHash(await version(template.id, 2), filledOnV1, null));
    expect(pinned.body.data.document_sha256).not.toBe(integratorHash(await version(template.id, 1), filledOnV1, null));

    // Version 3 makes a new question required: the old answers no longer pass.
    await call('PATCH', `/v1/form-templates/${template.id}`, {
      ...admin(),
      body: {
        fields: [
          { key: 'allergies', label: 'Any allergies?', type: 'text', required: true },
          { key: 'smoker', label: 'Smoker', type: 'boolean', required: true },
        ],
      },
    });
    const refused = await submit(scene.client.id, { template_id: template.id, answers: filledOnV1 });
    expectError(refused, 400, 'VALIDATION_ERROR');
    expect(refused.body.error.details).toEqual([{ path: 'answers.smoker', message: 'is required' }]);
  });

  it('submissions racing a PATCH that adds a required question: each is checked against the version it pins (8 at once)', async () => {
    const template = await makeFormTemplate(practice, {
      fields: [{ key: 'allergies', label: 'Allergies', type: 'text', required: true }],
    });
    const filledOnV1 = { allergies: 'None' };
    const [patched, ...submitted] = await Promise.all([
      call('PATCH', `/v1/form-templates/${template.id}`, {
        ...admin(),
        body: {
          fields: [
            { key: 'allergies', label: 'Allergies', type: 'text', required: true },
            { key: 'smoker', label: 'Smoker', type: 'boolean', required: true },
          ],
        },
      }),
      ...Array.from({ length: 8 }, () => submit(scene.client.id, { template_id: template.id, answers: filledOnV1 })),
    ]);
    expect(patched.body.data.version).toBe(2);
    const v1 = await version(template.id, 1);
    for (const answer of submitted) {
      if (answer.status === 201) {
        // Pinned to the version its answers pass: version 1, hashed as version 1.
        expect(answer.body.data.template_version).toBe(1);
        expect(answer.body.data.document_sha256).toBe(integratorHash(v1, filledOnV1, null));
      } else {
        expectError(answer, 400, 'VALIDATION_ERROR');
        expect(answer.body.error.details).toEqual([{ path: 'answers.smoker', message: 'is required' }]);
      }
    }
    const listed = await call('GET', `/v1/clients/${scene.client.id}/form-submissions?limit=100`, admin());
    const stored = listed.body.data.filter((item: { template_id: string }) => item.template_id === template.id);
    expect(stored.length).toBe(submitted.filter((answer) => answer.status === 201).length);
  });

  it('refuses bad answers at answers.<key>, an unsigned consent at signature, and unknown or foreign ids', async () => {
    const template = await makeFormTemplate(practice, {
      fields: [
        { key: 'skin', label: 'Skin', type: 'select', required: true, options: ['I', 'II'] },
        { key: 'ok', label: 'OK', type: 'boolean' },
      ],
    });
    const bad = await submit(scene.client.id, {
      template_id: template.id,
      answers: { skin: 'III', ok: 'yes', x: '1' },
    });
    expectError(bad, 400, 'VALIDATION_ERROR');
    expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'answers.ok',
      'answers.skin',
      'answers.x',
    ]);
    // A value of no answer type at all is refused by the body's schema, at the same path.
    const number = await submit(scene.client.id, { template_id: template.id, answers: { skin: 1 } });
    expectError(number, 400, 'VALIDATION_ERROR');
    expect(number.body.error.details[0].path).toBe('answers.skin');

    const consent = await makeFormTemplate(practice, { kind: 'photo_release', fields: [] });
    const unsigned = await submit(scene.client.id, { template_id: consent.id, answers: {} });
    expectError(unsigned, 400, 'VALIDATION_ERROR');
    expect(unsigned.body.error.details).toEqual([
      { path: 'signature', message: 'a photo_release form must be signed' },
    ]);

    expectError(
      await submit(NO_SUCH_ID, { template_id: template.id, answers: { skin: 'I' } }),
      404,
      'CLIENT_NOT_FOUND',
    );
    expectError(
      await submit(scene.client.id, { template_id: NO_SUCH_ID, answers: {} }),
      404,
      'FORM_TEMPLATE_NOT_FOUND',
    );
    const stranger = await makeClient(practice);
    const appointment = await booked(scene);
    expectError(
      await submit(stranger.id, { template_id: template.id, answers: { skin: 'I' }, appointment_id: appointment.id }),
      404,
      'APPOINTMENT_NOT_FOUND',
    );
    const other = await makePractice();
    expectError(
      await submit(scene.client.id, { template_id: template.id, answers: { skin: 'I' } }, other.adminToken),
      404,
      'CLIENT_NOT_FOUND',
    );
    const mine = await submit(scene.client.id, { template_id: template.id, answers: { skin: 'I' } });
    expectError(
      await call('GET', `/v1/form-submissions/${mine.body.data.id}`, { token: other.adminToken }),
      404,
      'FORM_SUBMISSION_NOT_FOUND',
    );
    expectError(await call('GET', `/v1/form-submissions/${NO_SUCH_ID}`, admin()), 404, 'FORM_SUBMISSION_NOT_FOUND');
    // Immutable: no route changes or deletes a submission.
    expectError(
      await call('PATCH', `/v1/form-submissions/${mine.body.data.id}`, { ...admin(), body: {} }),
      404,
      'NOT_FOUND',
    );
    expectError(await call('DELETE', `/v1/form-submissions/${mine.body.data.id}`, admin()), 404, 'NOT_FOUND');

    const analyst = await practice.tokenForRole('analyst');
    expectError(
      await submit(scene.client.id, { template_id: template.id, answers: { skin: 'I' } }, analyst),
      403,
      'FORBIDDEN',
    );
    expectError(await call('GET', `/v1/form-submissions/${mine.body.data.id}`, { token: analyst }), 403, 'FORBIDDEN');
    const provider = await practice.tokenForRole('provider');
    expect(
      (await submit(scene.client.id, { template_id: template.id, answers: { skin: 'II' } }, provider)).status,
    ).toBe(201);
  });

  it('a consent form records a consent in the same write: consent.signed fires and the appointment shows it', async () => {
    const client = await makeClient(practice);
    const appointment = await booked(scene, { client_id: client.id, scheduled_at: nyTime(BOOKING_DAY, '12:00') });
    const template = await makeFormTemplate(practice, {
      name: 'Filler consent',
      kind: 'consent',
      fields: [{ key: 'agree', label: 'I agree', type: 'boolean', required: true }],
    });
    await tap.drain();
    const signed = await submit(client.id, {
      template_id: template.id,
      answers: { agree: true },
      signature: { name: 'Casey Client' },
      appointment_id: appointment.id,
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(201);
    const submission = signed.body.data;
    expect(submission.signature).toEqual({ name: 'Casey Client', signed_at: submission.submitted_at });
    expect(submission.appointment_id).toBe(appointment.id);
    expect(submission.document_sha256).toBe(
      integratorHash(await version(template.id, 1), { agree: true }, 'Casey Client'),
    );

    const consent = {
      client_id: client.id,
      form_name: 'Filler consent',
      signed_at: submission.submitted_at,
      appointment_id: appointment.id,
      form_submission_id: submission.id,
    };
    const consents = await call('GET', `/v1/clients/${client.id}/consents`, admin());
    expect(consents.body.data).toEqual([expect.objectContaining(consent)]);
    const detail = await call('GET', `/v1/appointments/${appointment.id}`, admin());
    expect(detail.body.data.consent_forms).toEqual([expect.objectContaining(consent)]);
    const events = (await tap.drain()).filter((event) => event.type === 'consent.signed');
    expect(events.map((event) => event.data.object)).toEqual([expect.objectContaining(consent)]);

    // A consent recorded directly (section 5) still works, with no submission.
    const direct = await call('POST', `/v1/clients/${client.id}/consents`, {
      ...admin(),
      body: { form_name: 'Paper consent', signed_at: new Date().toISOString() },
    });
    expect(direct.body.data.form_submission_id).toBeNull();
  });

  it("lists a client's submissions newest first, by page; a deleted client's are gone", async () => {
    const client = await makeClient(practice);
    const template = await makeFormTemplate(practice, { fields: [] });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await submit(client.id, { template_id: template.id, answers: {} })).body.data.id);
    const first = await call('GET', `/v1/clients/${client.id}/form-submissions?limit=2`, admin());
    expect(first.body.data.map((s: { id: string }) => s.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.pagination.total).toBe(3);
    const rest = await call(
      'GET',
      `/v1/clients/${client.id}/form-submissions?limit=2&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`,
      admin(),
    );
    expect(rest.body.data.map((s: { id: string }) => s.id)).toEqual([ids[0]]);
    expect(rest.body.pagination.next_cursor).toBeNull();

    await call('DELETE', `/v1/clients/${client.id}`, admin());
    expectError(await call('GET', `/v1/clients/${client.id}/form-submissions`, admin()), 404, 'CLIENT_NOT_FOUND');
    expectError(await submit(client.id, { template_id: template.id, answers: {} }), 404, 'CLIENT_NOT_FOUND');
  });

  it('a staff submission keeps no client address or user agent', async () => {
    const template = await makeFormTemplate(practice, { fields: [] });
    const created = await call('POST', `/v1/clients/${scene.client.id}/form-submissions`, {
      ...admin(),
      headers: { 'user-agent': 'StaffApp/1.0' },
      body: { template_id: template.id, answers: {} },
    });
    const { Item } = await ddb().send(
      new GetCommand({
        TableName: tableName(),
        Key: entityKey(practice.medspaId, 'FORM_SUBMISSION', created.body.data.id),
      }),
    );
    expect(Item).toMatchObject({ source: 'staff', client_ip: null, user_agent: null });
  });

  it('audits every read of a submission (medical history), the list included', async () => {
    const template = await makeFormTemplate(practice, { fields: [] });
    const { data: submission } = (await submit(scene.client.id, { template_id: template.id, answers: {} })).body;
    const read = await call('GET', `/v1/form-submissions/${submission.id}`, admin());
    const listed = await call('GET', `/v1/clients/${scene.client.id}/form-submissions`, admin());
    const log = await call('GET', '/v1/audit-log?limit=100', admin());
    expect(log.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          operation: 'getFormSubmission',
          resource_id: submission.id,
          outcome: 'success',
          request_id: read.headers['x-request-id'],
        }),
        expect.objectContaining({
          operation: 'listFormSubmissions',
          resource_id: scene.client.id,
          request_id: listed.headers['x-request-id'],
        }),
      ]),
    );
  });
});
