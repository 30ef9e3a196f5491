import { describe, expect, it } from 'vitest';
import { issueManageToken, manageTokenGeneration, manageTokenValid } from '../../lib/crypto/manage-token';
import { open, seal } from '../../lib/crypto/sealed';

const practice = '6f1c7a52-2b8f-4a34-9a43-0e0c3b2f1a11';
const appointment = '0b6a1e5e-3c2d-4f7b-8a9c-1d2e3f4a5b6c';
const other = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';
const endsAt = '2031-03-12T15:00:00Z';
const before = new Date('2031-03-12T14:59:59Z');

describe('manage tokens', () => {
  const token = issueManageToken({ medspa_id: practice, id: appointment, end_at: endsAt });

  it('opens for its appointment until the appointment ends', () => {
    expect(manageTokenValid(practice, appointment, token, before)).toBe(true);
    expect(manageTokenValid(practice, appointment, token, new Date(endsAt))).toBe(false);
  });
  it('is refused for another appointment or practice', () => {
    expect(manageTokenValid(practice, other, token, before)).toBe(false);
    expect(manageTokenValid(other, appointment, token, before)).toBe(false);
  });
  it('is refused when any character changes, or it is not one', () => {
    for (let i = 0; i < token.length; i += 7) {
      const changed = token.slice(0, i) + (token[i] === 'A' ? 'B' : 'A') + token.slice(i + 1);
      expect(manageTokenValid(practice, appointment, changed, before), `position ${i}`).toBe(false);
    }
    for (const junk of ['', 'x', '====', `${token}A`, token.slice(0, -2)])
      expect(manageTokenValid(practice, appointment, junk, before)).toBe(false);
  });
  it('carries the generation it was issued at (a public reschedule moves it on: lib/use-cases/public-booking.ts)', () => {
    expect(manageTokenGeneration(practice, appointment, token, before)).toBe(0);
    const next = issueManageToken({ medspa_id: practice, id: appointment, end_at: endsAt, manage_generation: 2 });
    expect(manageTokenGeneration(practice, appointment, next, before)).toBe(2);
    expect(manageTokenGeneration(practice, other, next, before)).toBeNull();
  });
  it('is not a cursor, nor a cursor one (purposes are bound)', () => {
    const sealed = seal('medspa-cursor', [practice, appointment], null, 2_000_000_000);
    expect(manageTokenValid(practice, appointment, sealed, before)).toBe(false);
    expect(open('medspa-cursor', [practice, appointment], token, 0)).toEqual({ ok: false, reason: 'invalid' });
  });
});
