import { describe, expect, it } from 'vitest';
import {
  answersValidator,
  expiryOf,
  isPlainDate,
  NEVER,
  readinessOf,
  signatureProblem,
  templateProblems,
  type FormField,
} from '../../lib/domain/forms';

/** The rules of form templates and answers (API reference, section 14), pure. */

const FIELDS: FormField[] = [
  { key: 'name', label: 'Name', type: 'text', required: true },
  { key: 'notes', label: 'Notes', type: 'textarea', required: false },
  { key: 'pregnant', label: 'Pregnant?', type: 'boolean', required: true },
  { key: 'born', label: 'Date of birth', type: 'date', required: false },
  { key: 'skin', label: 'Skin type', type: 'select', required: true, options: ['I', 'II', 'III'] },
  { key: 'areas', label: 'Areas', type: 'multiselect', required: false, options: ['Forehead', 'Glabella'] },
];
const VALID = { name: 'Robin', pregnant: false, skin: 'II' };
const validate = answersValidator(FIELDS);

describe('answers validator (built from the template version at run time)', () => {
  const cases: Array<[string, Record<string, unknown>, Array<[string, RegExp]>]> = [
    ['the required answers only', VALID, []],
    [
      'every field answered',
      { ...VALID, notes: 'x'.repeat(10_000), born: '1990-02-28', areas: ['Forehead', 'Glabella'] },
      [],
    ],
    ['an empty multiselect that is not required', { ...VALID, areas: [] }, []],
    ['a required text missing', { pregnant: true, skin: 'I' }, [['answers.name', /required/]]],
    ['a required text blank', { ...VALID, name: '   ' }, [['answers.name', /required/]]],
    ['a text that is not a string', { ...VALID, name: 42 }, [['answers.name', /string/]]],
    ['a text over 1000 characters', { ...VALID, name: 'x'.repeat(1001) }, [['answers.name', /1000/]]],
    ['a textarea over 10000 characters', { ...VALID, notes: 'x'.repeat(10_001) }, [['answers.notes', /10000/]]],
    ['a required boolean missing', { name: 'R', skin: 'I' }, [['answers.pregnant', /required/]]],
    ['a boolean given as a string', { ...VALID, pregnant: 'no' }, [['answers.pregnant', /true or false/]]],
    ['a date in another format', { ...VALID, born: '28/02/1990' }, [['answers.born', /YYYY-MM-DD/]]],
    ['a date that is no calendar day', { ...VALID, born: '1990-02-30' }, [['answers.born', /YYYY-MM-DD/]]],
    ['a date given as a boolean', { ...VALID, born: true }, [['answers.born', /YYYY-MM-DD/]]],
    ['a select option not offered', { ...VALID, skin: 'IV' }, [['answers.skin', /not an option/]]],
    ['a select given a list', { ...VALID, skin: ['I'] }, [['answers.skin', /one of the options/]]],
    ['a multiselect option not offered', { ...VALID, areas: ['Chin'] }, [['answers.areas', /not an option/]]],
    ['a multiselect given a string', { ...VALID, areas: 'Forehead' }, [['answers.areas', /list/]]],
    ['a multiselect option twice', { ...VALID, areas: ['Forehead', 'Forehead'] }, [['answers.areas', /once/]]],
    ['an unknown key', { ...VALID, shoe_size: '42' }, [['answers.shoe_size', /unknown/]]],
    [
      'several problems at once',
      { name: '', skin: 'X', extra: true },
      [
        ['answers.name', /required/],
        ['answers.pregnant', /required/],
        ['answers.skin', /not an option/],
        ['answers.extra', /unknown/],
      ],
    ],
  ];
  it.each(cases)('%s', (_name, answers, expected) => {
    const problems = validate(answers);
    expect(problems.map((p) => p.path)).toEqual(expected.map(([path]) => path));
    for (const [i, problem] of problems.entries()) expect(problem.message).toMatch(expected[i]![1]);
  });

  it('a required multiselect needs one option', () => {
    const strict = answersValidator([{ key: 'a', label: 'A', type: 'multiselect', required: true, options: ['x'] }]);
    expect(strict({ a: [] })).toEqual([{ path: 'answers.a', message: 'choose at least one option' }]);
    expect(strict({ a: ['x'] })).toEqual([]);
  });

  it('an empty template takes only empty answers', () => {
    expect(answersValidator([])({})).toEqual([]);
    expect(answersValidator([])({ a: 'x' })).toEqual([{ path: 'answers.a', message: 'unknown field' }]);
  });
});

describe('signature rule', () => {
  it.each([
    ['consent', null, 'signature'],
    ['photo_release', undefined, 'signature'],
    ['consent', { name: 'Robin' }, null],
    ['intake', null, null],
    ['medical_history', undefined, null],
  ] as const)('%s signed %j: problem at %s', (kind, signature, path) => {
    expect(signatureProblem(kind, signature)?.path ?? null).toBe(path);
  });
});

describe('template rules', () => {
  it('keys are unique, options required for select kinds and refused for the others, unique', () => {
    expect(templateProblems(FIELDS)).toEqual([]);
    expect(
      templateProblems([
        { key: 'a', label: 'A', type: 'text', required: false },
        { key: 'a', label: 'A again', type: 'text', required: false },
        { key: 'b', label: 'B', type: 'select', required: false },
        { key: 'c', label: 'C', type: 'multiselect', required: false, options: [] },
        { key: 'd', label: 'D', type: 'boolean', required: false, options: ['yes'] },
        { key: 'e', label: 'E', type: 'select', required: false, options: ['x', 'x'] },
      ]).map((p) => p.path),
    ).toEqual(['fields.1.key', 'fields.2.options', 'fields.3.options', 'fields.4.options', 'fields.5.options']);
  });

  it('plain dates are real calendar days', () => {
    expect(['2024-02-29', '2026-12-31'].every(isPlainDate)).toBe(true);
    expect(['2025-02-29', '2026-13-01', '2026-1-01', '20260101', ''].some(isPlainDate)).toBe(false);
  });
});

describe('expiry and readiness', () => {
  it('expires valid_days x 24 h after submission, or never', () => {
    expect(expiryOf('2026-01-01T10:00:00.000Z', 30)).toBe('2026-01-31T10:00:00.000Z');
    expect(expiryOf('2026-01-01T10:00:00.000Z', null)).toBeNull();
  });

  it('missing: not met at the start; expired: those of them with an earlier submission', () => {
    const names: Record<string, string> = { a: 'Intake', b: 'Consent', c: 'History', d: 'Photo' };
    const latest: Record<string, string> = {
      a: NEVER,
      b: '2026-06-01T09:59:59.999Z',
      d: '2026-06-01T10:00:00.000Z',
    };
    const readiness = readinessOf(
      ['a', 'b', 'c', 'd', 'a'],
      (id) => names[id]!,
      (id) => latest[id],
      '2026-06-01T10:00:00.000Z',
    );
    expect(readiness.required.map((r) => r.template_id)).toEqual(['a', 'b', 'c', 'd']);
    expect(readiness.missing).toEqual([
      { template_id: 'b', name: 'Consent' },
      { template_id: 'c', name: 'History' },
    ]);
    expect(readiness.expired).toEqual([{ template_id: 'b', name: 'Consent' }]);
  });
});
