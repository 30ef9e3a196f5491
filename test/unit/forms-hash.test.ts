import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalText, documentSha256, type SignedDocument } from '../../lib/domain/forms';
import { DOCUMENT_HASH_DESCRIPTION, DOCUMENT_HASH_EXAMPLE } from '../../lib/schemas/forms';
import { independentJcs, integratorHash } from '../fixtures/jcs';

/**
 * `document_sha256` (docs/decisions/0029): recomputed by an independent implementation of the
 * documented rule (test/fixtures/jcs.ts), not the product's function; and the OpenAPI document's worked example is what the product computes.
 */

const independentHash = (document: SignedDocument) =>
  integratorHash(
    {
      id: document.template_id,
      version: document.template_version,
      name: document.name,
      kind: document.kind,
      body_markdown: document.body_markdown,
      fields: [...document.fields],
    },
    document.answers,
    document.signature_name,
  );

const EXAMPLE: SignedDocument = {
  template_id: '6c7d8e9f-0a1b-4c2d-8e3f-4a5b6c7d8e1b',
  template_version: 1,
  name: 'Consent',
  kind: 'consent',
  body_markdown: 'I agree.',
  fields: [{ key: 'agree', label: 'I agree', type: 'boolean', required: true }],
  answers: { agree: true },
  signature_name: 'Robin Client',
};
const EXAMPLE_TEXT =
  '{"answers":{"agree":true},"body_markdown":"I agree.","fields":[{"key":"agree","label":"I agree","required":true,"type":"boolean"}],"kind":"consent","name":"Consent","signature_name":"Robin Client","template_id":"6c7d8e9f-0a1b-4c2d-8e3f-4a5b6c7d8e1b","template_version":1}';

describe('document_sha256', () => {
  it("the documented example: its canonical text and hash are the product's, and the OpenAPI text says both", () => {
    expect(canonicalText(EXAMPLE)).toBe(EXAMPLE_TEXT);
    expect(documentSha256(EXAMPLE)).toBe(DOCUMENT_HASH_EXAMPLE);
    expect(independentHash(EXAMPLE)).toBe(DOCUMENT_HASH_EXAMPLE);
    expect(DOCUMENT_HASH_DESCRIPTION).toContain(EXAMPLE_TEXT);
    expect(DOCUMENT_HASH_DESCRIPTION).toContain(DOCUMENT_HASH_EXAMPLE);
  });

  it('agrees with the independent implementation on awkward text, every field type and member order', () => {
    const document: SignedDocument = {
      template_id: 'f0e1d2c3-b4a5-4697-8877-665544332210',
      template_version: 12,
      name: 'Histoire médicale "v2" \u2028 ✓ 😀',
      kind: 'medical_history',
      body_markdown: '# Title\n\nLine\twith\ttabs, \\ backslash, </script>, \u0001 control, é',
      fields: [
        { key: 'z_last', label: 'Z', type: 'text', required: false },
        { key: 'a_first', label: 'A', type: 'multiselect', required: true, options: ['β', 'α', 'B', 'a'] },
        { key: 'when', label: 'When', type: 'date', required: false },
        { key: 'ok', label: 'OK', type: 'boolean', required: false },
      ],
      answers: { z_last: '', a_first: ['α', 'B'], when: '2026-01-02', ok: false, Upper: 'u', _u: '😀' },
      signature_name: null,
    };
    expect(documentSha256(document)).toBe(independentHash(document));
    expect(documentSha256(document)).toMatch(/^[0-9a-f]{64}$/);
    // Member order of the input never matters; a different answer always does.
    const reordered = { ...document, answers: Object.fromEntries(Object.entries(document.answers).reverse()) };
    expect(documentSha256(reordered)).toBe(documentSha256(document));
    expect(documentSha256({ ...document, answers: { ...document.answers, ok: true } })).not.toBe(
      documentSha256(document),
    );
  });

  it('JCS: members sorted by UTF-16 code units (not code points), no whitespace, undefined members left out', () => {
    // U+FB01 (one unit, 0xFB01) sorts after U+1F600 (surrogates 0xD83D...) by code units.
    expect(canonicalJson({ '\uFB01': 1, '😀': 2, a: [true, null, 'x'], b: undefined })).toBe(
      '{"a":[true,null,"x"],"😀":2,"ﬁ":1}',
    );
    expect(canonicalJson({ b: { d: 1, c: 2 } })).toBe(independentJcs({ b: { d: 1, c: 2 } }));
  });
});
