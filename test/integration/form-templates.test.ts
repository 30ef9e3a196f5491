import { beforeAll, describe, expect, it } from 'vitest';
import { NO_SUCH_ID } from '../../lib/schemas/common';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { makeService } from '../fixtures/builders';
import { makeFormTemplate } from '../fixtures/forms';

/** Form templates and their versions; services' required templates (API reference, section 14). */

const expectError = (response: { status: number; body: any }, status: number, code: string) => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error.code).toBe(code);
};

let practice: TestPractice;
beforeAll(async () => {
  practice = await makePractice();
});

const admin = () => ({ token: practice.adminToken });

describe('form templates', () => {
  it('creates version 1, PATCH makes version n+1, and every version stays readable, unchanged', async () => {
    const created = await call('POST', '/v1/form-templates', {
      ...admin(),
      body: {
        name: 'Botox consent',
        kind: 'consent',
        body_markdown: 'I consent.',
        fields: [
          { key: 'agree', label: 'I agree', type: 'boolean', required: true },
          { key: 'areas', label: 'Areas', type: 'multiselect', options: ['Forehead', 'Glabella'] },
        ],
        valid_days: 365,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'Botox consent',
      kind: 'consent',
      version: 1,
      active: true,
      valid_days: 365,
      fields: [
        { key: 'agree', label: 'I agree', type: 'boolean', required: true },
        { key: 'areas', label: 'Areas', type: 'multiselect', required: false, options: ['Forehead', 'Glabella'] },
      ],
    });
    // `options` only on select kinds.
    expect(created.body.data.fields[0]).not.toHaveProperty('options');
    const id = created.body.data.id;

    const patched = await call('PATCH', `/v1/form-templates/${id}`, {
      ...admin(),
      body: { body_markdown: 'I consent, v2.', active: false, valid_days: null },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data).toMatchObject({
      version: 2,
      body_markdown: 'I consent, v2.',
      active: false,
      valid_days: null,
    });
    expect(patched.headers.etag).toBe('"2"');

    expect((await call('GET', `/v1/form-templates/${id}`, admin())).body.data).toEqual(patched.body.data);
    const v1 = await call('GET', `/v1/form-templates/${id}/versions/1`, admin());
    expect(v1.body.data).toEqual(created.body.data);
    expect((await call('GET', `/v1/form-templates/${id}/versions/2`, admin())).body.data).toEqual(patched.body.data);
    for (const n of ['3', '0', 'abc', '1.5', '-1'])
      expectError(await call('GET', `/v1/form-templates/${id}/versions/${n}`, admin()), 404, 'FORM_TEMPLATE_NOT_FOUND');

    const listed = await call('GET', '/v1/form-templates', admin());
    expect(listed.body.data.find((t: { id: string }) => t.id === id)).toEqual(patched.body.data);
  });

  it("refuses a template's own problems, unknown ids, other practices, stale If-Match and the wrong roles", async () => {
    const post = (body: object) => call('POST', '/v1/form-templates', { ...admin(), body });
    const base = { name: 'Intake', kind: 'intake', body_markdown: '' };
    const field = (extra: object) => ({ key: 'a', label: 'A', type: 'text', ...extra });
    const at = async (body: object) => {
      const response = await post(body);
      expectError(response, 400, 'VALIDATION_ERROR');
      return response.body.error.details.map((d: { path: string }) => d.path);
    };
    expect(await at({ ...base, fields: [field({}), field({ label: 'again' })] })).toEqual(['fields.1.key']);
    expect(await at({ ...base, fields: [field({ type: 'select' })] })).toEqual(['fields.0.options']);
    expect(await at({ ...base, fields: [field({ options: ['x'] })] })).toEqual(['fields.0.options']);
    expect(await at({ ...base, fields: [field({ key: 'Bad Key' })] })).toEqual(['fields.0.key']);
    expect(await at({ ...base, fields: Array.from({ length: 101 }, (_, i) => field({ key: `k${i}` })) })).toEqual([
      'fields',
    ]);
    expect(await at({ ...base, kind: 'waiver' })).toEqual(['kind']);
    expect(await at({ ...base, active: false })).toEqual(['active']);

    const template = await makeFormTemplate(practice);
    expectError(
      await call('PATCH', `/v1/form-templates/${template.id}`, {
        ...admin(),
        headers: { 'if-match': '"7"' },
        body: { name: 'Stale' },
      }),
      409,
      'VERSION_CONFLICT',
    );
    expectError(await call('GET', `/v1/form-templates/${NO_SUCH_ID}`, admin()), 404, 'FORM_TEMPLATE_NOT_FOUND');
    expectError(await call('GET', '/v1/form-templates/not-a-uuid', admin()), 404, 'FORM_TEMPLATE_NOT_FOUND');
    expectError(
      await call('PATCH', `/v1/form-templates/${NO_SUCH_ID}`, { ...admin(), body: { name: 'X' } }),
      404,
      'FORM_TEMPLATE_NOT_FOUND',
    );
    const other = await makePractice();
    expectError(
      await call('GET', `/v1/form-templates/${template.id}`, { token: other.adminToken }),
      404,
      'FORM_TEMPLATE_NOT_FOUND',
    );
    expectError(
      await call('GET', `/v1/form-templates/${template.id}/versions/1`, { token: other.adminToken }),
      404,
      'FORM_TEMPLATE_NOT_FOUND',
    );

    const [frontDesk, analyst, provider] = await Promise.all(
      (['front_desk', 'analyst', 'provider'] as const).map((role) => practice.tokenForRole(role)),
    );
    expectError(await call('POST', '/v1/form-templates', { token: frontDesk, body: base }), 403, 'FORBIDDEN');
    expectError(
      await call('PATCH', `/v1/form-templates/${template.id}`, { token: provider, body: { name: 'X' } }),
      403,
      'FORBIDDEN',
    );
    for (const token of [frontDesk, analyst, provider]) {
      expect((await call('GET', `/v1/form-templates/${template.id}`, { token })).status).toBe(200);
      expect((await call('GET', `/v1/form-templates/${template.id}/versions/1`, { token })).status).toBe(200);
    }
  });

  it('N simultaneous PATCHes: each makes its own version (none lost), and with the same If-Match exactly one wins', async () => {
    const template = await makeFormTemplate(practice);
    const N = 8;
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        call('PATCH', `/v1/form-templates/${template.id}`, { ...admin(), body: { name: `Name ${i}` } }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(N).fill(200));
    const versions = answers.map((a) => a.body.data.version).sort((a, b) => a - b);
    expect(versions).toEqual(Array.from({ length: N }, (_, i) => i + 2));
    const current = (await call('GET', `/v1/form-templates/${template.id}`, admin())).body.data;
    expect(current.version).toBe(N + 1);
    // Each version holds exactly the change that made it.
    for (const answer of answers) {
      const stored = await call(
        'GET',
        `/v1/form-templates/${template.id}/versions/${answer.body.data.version}`,
        admin(),
      );
      expect(stored.body.data).toEqual(answer.body.data);
    }

    const raced = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        call('PATCH', `/v1/form-templates/${template.id}`, {
          ...admin(),
          headers: { 'if-match': `"${N + 1}"` },
          body: { name: `Matched ${i}` },
        }),
      ),
    );
    expect(raced.filter((a) => a.status === 200)).toHaveLength(1);
    for (const lost of raced.filter((a) => a.status !== 200)) expectError(lost, 409, 'VERSION_CONFLICT');
    expect((await call('GET', `/v1/form-templates/${template.id}`, admin())).body.data.version).toBe(N + 2);
  });
});

describe("services' required form templates", () => {
  it('are checked to exist on create and update, and answered', async () => {
    const template = await makeFormTemplate(practice);
    const body = { name: 'Botox', price_cents: 100, duration_minutes: 30 };
    expectError(
      await call('POST', '/v1/services', { ...admin(), body: { ...body, required_form_template_ids: [NO_SUCH_ID] } }),
      404,
      'FORM_TEMPLATE_NOT_FOUND',
    );
    const created = await call('POST', '/v1/services', {
      ...admin(),
      body: { ...body, required_form_template_ids: [template.id, template.id] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.required_form_template_ids).toEqual([template.id]);

    const plain = await makeService(practice);
    expect(plain.required_form_template_ids).toEqual([]);
    expectError(
      await call('PATCH', `/v1/services/${plain.id}`, {
        ...admin(),
        body: { required_form_template_ids: [NO_SUCH_ID] },
      }),
      404,
      'FORM_TEMPLATE_NOT_FOUND',
    );
    const other = await makeFormTemplate(await makePractice());
    expectError(
      await call('PATCH', `/v1/services/${plain.id}`, { ...admin(), body: { required_form_template_ids: [other.id] } }),
      404,
      'FORM_TEMPLATE_NOT_FOUND',
    );
    const patched = await call('PATCH', `/v1/services/${plain.id}`, {
      ...admin(),
      body: { required_form_template_ids: [template.id] },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data).toMatchObject({ required_form_template_ids: [template.id], version: 2 });
    expectError(
      await call('PATCH', `/v1/services/${NO_SUCH_ID}`, {
        ...admin(),
        body: { required_form_template_ids: [NO_SUCH_ID] },
      }),
      404,
      'SERVICE_NOT_FOUND',
    );
  });
});
