import { describe, expect, it } from 'vitest';
import { ContactConsentEvent } from '../../lib/schemas/contact-consents';
import { call, makePractice } from '../fixtures/api';
import { makeClient } from '../fixtures/builders';
import { eventTap } from '../fixtures/stream';
import { useTableStream } from '../fixtures/table-stream';

useTableStream();

// The table's real stream through the production consumer: each recorded contact consent change
// is one client.contact_consent_changed, with ids and the change only (no contact details).

describe('client.contact_consent_changed from the table stream', () => {
  it('each recorded change is one event, in sequence; refusals, list items and the state item add none', async () => {
    const tap = eventTap();
    const practice = await makePractice();
    const token = practice.adminToken;
    const client = await makeClient(practice);
    const base = `/v1/clients/${client.id}/contact-consents`;
    const evidence = { text_shown: 'Text me offers' };
    expect(
      (await call('PUT', `${base}/sms/marketing`, { token, body: { status: 'granted', source: 'staff', evidence } }))
        .status,
    ).toBe(200);
    expect(
      (await call('PUT', `${base}/sms/marketing`, { token, body: { status: 'revoked', source: 'import' } })).status,
    ).toBe(200);
    expect(
      (await call('PUT', `${base}/sms/spam`, { token, body: { status: 'granted', source: 'staff' } })).status,
    ).toBe(400);

    const events = (await tap.drain()).filter((event) => event.type === 'client.contact_consent_changed');
    expect(events.map((event) => event.data)).toEqual([
      {
        object: {
          client_id: client.id,
          channel: 'sms',
          purpose: 'marketing',
          status: 'granted',
          source: 'staff',
          evidence,
          recorded_at: expect.any(String),
          sequence: 1,
        },
      },
      {
        object: expect.objectContaining({
          client_id: client.id,
          status: 'revoked',
          source: 'import',
          evidence: null,
          sequence: 2,
        }),
      },
    ]);
    expect(events.every((event) => event.medspa_id === practice.medspaId)).toBe(true);
    // Exactly the documented object: no contact details ride along.
    for (const event of events)
      expect(Object.keys(event.data.object).sort()).toEqual(Object.keys(ContactConsentEvent.shape).sort());
    // A replayed stream yields the same events under the same ids.
    const replayed = (await tap.replay(tap.seen)).filter((event) => event.type === 'client.contact_consent_changed');
    expect(replayed.map((event) => event.id)).toEqual(events.map((event) => event.id));
  });
});
