import { describe, expect, it } from 'vitest';
import { MAX_PHOTO_BYTES, PHOTO_OBJECT_PREFIX, photoObjectKey, urlExpiry } from '../../lib/domain/photos';
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
