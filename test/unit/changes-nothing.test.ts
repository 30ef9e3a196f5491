import { describe, expect, it } from 'vitest';
import { changesNothing } from '../../lib/db/update';

describe('changesNothing: DynamoDB equality of a PATCH against the stored record', () => {
  const stored = {
    name: 'Room',
    description: null,
    tags: ['a', 'b'],
    hours: { mon: [{ start: '09:00', end: '17:00' }], tue: [] },
  };

  it('equal values, maps in any key order, undefined fields ignored', () => {
    expect(changesNothing({}, stored)).toBe(true);
    expect(changesNothing({ name: 'Room', description: null, notes: undefined }, stored)).toBe(true);
    expect(changesNothing({ hours: { tue: [], mon: [{ end: '17:00', start: '09:00' }] } }, stored)).toBe(true);
  });

  it('lists in order, null is not absent, nested differences count', () => {
    expect(changesNothing({ tags: ['b', 'a'] }, stored)).toBe(false);
    expect(changesNothing({ title: null }, stored)).toBe(false);
    expect(changesNothing({ description: '' }, stored)).toBe(false);
    expect(changesNothing({ hours: { mon: [{ start: '09:00', end: '18:00' }], tue: [] } }, stored)).toBe(false);
    expect(changesNothing({ hours: { mon: [{ start: '09:00', end: '17:00' }] } }, stored)).toBe(false);
  });
});
