import { describe, expect, it } from 'vitest';
import {
  applyConsentChanges,
  listedConsentOf,
  NO_CONSENTS,
  publicGrants,
  type ConsentChange,
} from '../../lib/domain/contact-consent';

/** The contact consent rules of section 14 (lib/domain/contact-consent.ts). */

const AT = '2026-11-23T14:45:00.000Z';
const LATER = '2026-11-24T09:00:00.000Z';
const change = (over: Partial<ConsentChange> = {}): ConsentChange => ({
  channel: 'sms',
  purpose: 'marketing',
  status: 'granted',
  source: 'staff',
  evidence: null,
  ...over,
});

describe('contact consent changes', () => {
  it('a grant is history entry 1 and the current state of its pair, and puts the client on the list', () => {
    const { state, recorded, listed } = applyConsentChanges(NO_CONSENTS, [change()], AT);
    expect(recorded).toEqual([{ ...change(), sequence: 1, recorded_at: AT }]);
    expect(state).toEqual({
      version: 1,
      current: [{ channel: 'sms', purpose: 'marketing', status: 'granted', source: 'staff', updated_at: AT }],
    });
    expect(listed).toEqual({ sms_marketing: true });
  });

  it('a revoke replaces the pair only, numbers on, and takes the client off the list', () => {
    const first = applyConsentChanges(NO_CONSENTS, [change(), change({ channel: 'email' })], AT).state;
    const { state, recorded, listed } = applyConsentChanges(first, [change({ status: 'revoked' })], LATER);
    expect(recorded.map((entry) => entry.sequence)).toEqual([3]);
    expect(state.version).toBe(3);
    expect(state.current.map((c) => [c.channel, c.purpose, c.status, c.updated_at])).toEqual([
      ['sms', 'marketing', 'revoked', LATER],
      ['email', 'marketing', 'granted', AT],
    ]);
    expect(listed).toEqual({ sms_marketing: false });
  });

  it('transactional consents are kept but listed nowhere', () => {
    expect(listedConsentOf('sms', 'transactional')).toBeNull();
    expect(listedConsentOf('email', 'marketing')).toBe('email_marketing');
    expect(applyConsentChanges(NO_CONSENTS, [change({ purpose: 'transactional' })], AT).listed).toEqual({});
  });

  it('orders the current states sms then email, marketing then transactional', () => {
    const { state } = applyConsentChanges(
      NO_CONSENTS,
      [
        change({ channel: 'email', purpose: 'transactional' }),
        change({ channel: 'sms', purpose: 'transactional' }),
        change({ channel: 'email' }),
        change(),
      ],
      AT,
    );
    expect(state.current.map((c) => `${c.channel}_${c.purpose}`)).toEqual([
      'sms_marketing',
      'sms_transactional',
      'email_marketing',
      'email_transactional',
    ]);
  });
});

describe('public booking grants', () => {
  const text_shown = 'Text me offers';

  it('each true is a public grant with the text shown as evidence; false or absent asks nothing', () => {
    expect(publicGrants(NO_CONSENTS, { sms_marketing: true, email_marketing: false, text_shown })).toEqual([
      change({ source: 'public', evidence: { text_shown } }),
    ]);
    expect(publicGrants(NO_CONSENTS, { text_shown })).toEqual([]);
    expect(publicGrants(NO_CONSENTS, undefined)).toEqual([]);
  });

  it('never revokes, and a consent granted already is not recorded again', () => {
    const granted = applyConsentChanges(NO_CONSENTS, [change()], AT).state;
    expect(publicGrants(granted, { sms_marketing: true, email_marketing: true, text_shown })).toEqual([
      change({ channel: 'email', source: 'public', evidence: { text_shown } }),
    ]);
    const revoked = applyConsentChanges(granted, [change({ status: 'revoked' })], LATER).state;
    expect(publicGrants(revoked, { sms_marketing: true, text_shown })).toHaveLength(1);
    expect(publicGrants(revoked, { sms_marketing: false, text_shown })).toEqual([]);
  });
});
