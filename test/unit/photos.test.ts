import { describe, expect, it } from 'vitest';
import {
  arrivalAction,
  MAX_PHOTO_BYTES,
  PHOTO_OBJECT_PREFIX,
  parsePhotoObjectKey,
  photoObjectKey,
  urlExpiry,
} from '../../lib/domain/photos';
import { CreatePhotoBody } from '../../lib/schemas/photos';

describe('photos (section 13)', () => {
  it('keys an object by ids only, under the prefix the grants name', () => {
    const key = photoObjectKey(
      '3f2b8c1e-7d4a-4e59-9b10-2c6d8e4f1a01',
      'c7d2e9f4-1a3b-4c5d-8e6f-7a8b9c0d1e02',
      '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d19',
    );
    expect(key).toBe(
      'photos/3f2b8c1e-7d4a-4e59-9b10-2c6d8e4f1a01/c7d2e9f4-1a3b-4c5d-8e6f-7a8b9c0d1e02/5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d19',
    );
    expect(key.startsWith(PHOTO_OBJECT_PREFIX)).toBe(true);
  });

  it('reads the ids back from an object key, and no ids from a key no photo could have', () => {
    const key = photoObjectKey('m1', 'c1', 'p1');
    expect(parsePhotoObjectKey(key)).toEqual({ medspaId: 'm1', clientId: 'c1', photoId: 'p1' });
    for (const stray of ['photos/m1/c1', 'photos/m1/c1/p1/x', 'photos//c1/p1', 'other/m1/c1/p1', 'photos/m1/c1/'])
      expect(parsePhotoObjectKey(stray), stray).toBeNull();
  });

  it('confirms an arrival its photo names, and deletes any other as an orphan', () => {
    const key = photoObjectKey('m1', 'c1', 'p1');
    expect(arrivalAction({ object_key: key }, key)).toBe('confirm');
    expect(arrivalAction(null, key)).toBe('orphan');
    expect(arrivalAction({ object_key: photoObjectKey('m1', 'c2', 'p1') }, key)).toBe('orphan');
  });

  it('says when a URL signed now for n seconds expires', () => {
    expect(urlExpiry(new Date('2026-11-28T10:00:00.000Z'), 900)).toBe('2026-11-28T10:15:00.000Z');
  });

  it('takes 1 byte to 20 MB of jpeg, png or heic, before, after or other', () => {
    const parse = (body: object) =>
      CreatePhotoBody.safeParse({ content_type: 'image/jpeg', byte_size: 1, phase: 'before', ...body }).success;
    expect(parse({})).toBe(true);
    expect(parse({ byte_size: MAX_PHOTO_BYTES, content_type: 'image/heic', phase: 'other' })).toBe(true);
    expect(parse({ byte_size: MAX_PHOTO_BYTES + 1 })).toBe(false);
    expect(parse({ byte_size: 0 })).toBe(false);
    expect(parse({ content_type: 'image/gif' })).toBe(false);
    expect(parse({ phase: 'during' })).toBe(false);
    expect(parse({ unknown: true })).toBe(false);
  });
});
