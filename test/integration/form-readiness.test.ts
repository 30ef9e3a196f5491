import { beforeAll, describe, expect, it } from 'vitest';
import { signedConsentsOf } from '../../lib/use-cases/consents';
import { appointmentDetail } from '../../lib/use-cases/appointment-queries';
import { readReadiness } from '../../lib/db/forms';
import { submitForm } from '../../lib/use-cases/form-submissions';
import { call, type TestPractice } from '../fixtures/api';
import { makeClient, makeService } from '../fixtures/builders';
import { counted } from '../fixtures/ddb-calls';
import { makeFormTemplate } from '../fixtures/forms';
import { BOOKING_DAY, booked, makeScene, nyTime, type Scene } from '../fixtures/scheduling';

/**
 * An appointment's forms readiness (API reference, section 14): required templates met by a
 * submission unexpired at the start, read with the detail's own batch (docs/decisions/0029).
 */

let scene: Scene;
let practice: TestPractice;
beforeAll(async () => {
  scene = await makeScene();
  practice = scene.practice;
});

const admin = () => ({ token: practice.adminToken });
const submit = (clientId: string, templateId: string) =>
  call('POST', `/v1/clients/${clientId}/form-submissions`, {
    ...admin(),
    body: { template_id: templateId, answers: {} },
  });
const formsOf = async (appointmentId: string) =>
  (await call('GET', `/v1/appointments/${appointmentId}`, admin())).body.data.forms;
const ref = (template: { id: string; name: string }) => ({ template_id: template.id, name: template.name });

describe('forms readiness on the appointment detail', () => {
  it('missing until submitted, met by an unexpired submission, expired when valid_days ends before the start', async () => {
    // The appointment is two weeks ahead: a 1-day form submitted today has expired by then, a 365-day one has not.
    const [history, consent, photos] = await Promise.all([
      makeFormTemplate(practice, { name: 'History', valid_days: 365, fields: [] }),
      makeFormTemplate(practice, { name: 'Day pass', valid_days: 1, fields: [] }),
      makeFormTemplate(practice, { name: 'Photos', fields: [] }),
    ]);
    const service = await makeService(practice, {
      provider_ids: [scene.provider.id],
      required_form_template_ids: [history.id, consent.id, photos.id],
    });
    const client = await makeClient(practice);
    const appointment = await booked(scene, {
      client_id: client.id,
      service_id: service.id,
      scheduled_at: nyTime(BOOKING_DAY, '14:00'),
    });

    expect(await formsOf(appointment.id)).toEqual({
      required: [ref(history), ref(consent), ref(photos)],
      missing: [ref(history), ref(consent), ref(photos)],
      expired: [],
    });

    await Promise.all([submit(client.id, history.id), submit(client.id, consent.id)]);
    expect(await formsOf(appointment.id)).toEqual({
      required: [ref(history), ref(consent), ref(photos)],
      missing: [ref(consent), ref(photos)],
      expired: [ref(consent)],
    });

    // Another client's submissions meet nothing here.
    await submit(scene.client.id, photos.id);
    expect((await formsOf(appointment.id)).missing).toEqual([ref(consent), ref(photos)]);

    // A longer validity from now on: a new submission meets it; a later shorter one never lowers the latest expiry.
    await call('PATCH', `/v1/form-templates/${consent.id}`, { ...admin(), body: { valid_days: 60 } });
    await submit(client.id, consent.id);
    await call('PATCH', `/v1/form-templates/${consent.id}`, { ...admin(), body: { valid_days: 1 } });
    await submit(client.id, consent.id);
    await submit(client.id, photos.id);
    // Names follow the template's current version.
    const renamed = await call('PATCH', `/v1/form-templates/${history.id}`, {
      ...admin(),
      body: { name: 'History v2' },
    });
    expect(await formsOf(appointment.id)).toEqual({
      required: [ref(renamed.body.data), ref(consent), ref(photos)],
      missing: [],
      expired: [],
    });
  });

  it('a service without requirements is ready; the detail still costs the same DynamoDB round trips', async () => {
    const appointment = await booked(scene, { scheduled_at: nyTime(BOOKING_DAY, '16:00') });
    expect(await formsOf(appointment.id)).toEqual({ required: [], missing: [], expired: [] });

    const template = await makeFormTemplate(practice, { fields: [] });
    const service = await makeService(practice, {
      provider_ids: [scene.provider.id],
      required_form_template_ids: [template.id],
    });
    const withForms = await booked(scene, { service_id: service.id, scheduled_at: nyTime(BOOKING_DAY, '11:00') });
    const medspaId = practice.medspaId;
    const detail = (id: string) => appointmentDetail(medspaId, id, (c) => signedConsentsOf(medspaId, c), new Date());
    // The appointment's partition (Query), then its client, service, provider, the forms catalog and the client's
    // forms summary in ONE BatchGetItem, beside the consents' Query: readiness adds no round trip.
    const { result, calls } = await counted(() => detail(withForms.id));
    expect(calls).toEqual({ QueryCommand: 2, BatchGetItemCommand: 1 });
    expect(result.forms.missing).toEqual([ref(template)]);
  });

  it('N simultaneous submissions at different times: every one is stored, and the summary keeps the latest expiry', async () => {
    const client = await makeClient(practice);
    const template = await makeFormTemplate(practice, { kind: 'consent', valid_days: 10, fields: [] });
    const base = Date.now();
    // Submission times shuffled so the latest does not come last.
    const offsets = [3, 7, 1, 6, 0, 5, 2, 4];
    const stored = await Promise.all(
      offsets.map((hours) =>
        submitForm(
          practice.medspaId,
          client.id,
          { template_id: template.id, answers: {}, signature: { name: 'Casey' } },
          new Date(base + hours * 3_600_000),
          { source: 'staff' },
        ),
      ),
    );
    const { summary } = await readReadiness(practice.medspaId, client.id);
    const latest = stored
      .map((s) => s.expires_at!)
      .sort()
      .at(-1);
    expect(summary.latest_expiry[template.id]).toBe(latest);
    expect(latest).toBe(new Date(base + 7 * 3_600_000 + 10 * 86_400_000).toISOString());
    const listed = await call('GET', `/v1/clients/${client.id}/form-submissions`, admin());
    expect(listed.body.pagination.total).toBe(offsets.length);
    // Each consent form recorded its own consent.
    const consents = await call('GET', `/v1/clients/${client.id}/consents`, admin());
    expect(consents.body.data.map((c: { form_submission_id: string }) => c.form_submission_id).sort()).toEqual(
      stored.map((s) => s.id).sort(),
    );
  });
});
