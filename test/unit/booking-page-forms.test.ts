import { describe, expect, it } from 'vitest';
import type { PublicForm } from '../../lib/booking-page/browser/api';
import { formRequest, inputOf, SIGNATURE } from '../../lib/booking-page/browser/visit-forms';

/** The booking page's visit forms apart from the DOM (lib/booking-page/browser/visit-forms.ts): what a filled form sends. */

const intake: PublicForm = {
  template_id: 'tpl-1',
  name: 'Medical history',
  version: 2,
  kind: 'medical_history',
  signature_required: false,
  body_markdown: 'Tell us about your health.',
  fields: [
    { key: 'allergies', label: 'Allergies', type: 'textarea', required: false },
    { key: 'pregnant', label: 'Pregnant', type: 'boolean', required: true },
    { key: 'last_visit', label: 'Last visit', type: 'date', required: false },
    { key: 'skin', label: 'Skin type', type: 'select', required: true, options: ['I', 'II', 'III'] },
    { key: 'areas', label: 'Areas', type: 'multiselect', required: false, options: ['forehead', 'lips', 'jaw'] },
    { key: 'name', label: 'Name', type: 'text', required: false },
  ],
};

describe('formRequest: the body a filled form sends', () => {
  it('answers each field by its type: a ticked box true, an unticked one false, a multiselect the options ticked, text trimmed', () => {
    const entries: [string, string][] = [
      ['allergies', '  latex '],
      ['pregnant', 'yes'],
      ['last_visit', '2026-01-02'],
      ['skin', 'II'],
      ['areas', 'forehead'],
      ['areas', 'jaw'],
      ['name', 'Jane'],
    ];
    expect(formRequest(intake, entries)).toEqual({
      template_id: 'tpl-1',
      answers: {
        allergies: 'latex',
        pregnant: true,
        last_visit: '2026-01-02',
        skin: 'II',
        areas: ['forehead', 'jaw'],
        name: 'Jane',
      },
    });
  });

  it('leaves empty answers out (the API names the required ones missing), but an unticked box answers false', () => {
    expect(
      formRequest(intake, [
        ['allergies', '   '],
        ['skin', ''],
        ['last_visit', ''],
      ]),
    ).toEqual({
      template_id: 'tpl-1',
      answers: { pregnant: false },
    });
  });

  it('sends no entry the template does not have, and a signature only for a form that needs one', () => {
    expect(
      formRequest(intake, [
        ['other', 'x'],
        [SIGNATURE, 'Jane Doe'],
      ]).answers,
    ).toEqual({ pregnant: false });
    expect(formRequest(intake, [[SIGNATURE, 'Jane Doe']])).not.toHaveProperty('signature');
    const consent: PublicForm = { ...intake, kind: 'consent', signature_required: true, fields: [] };
    expect(formRequest(consent, [[SIGNATURE, ' Jane Doe ']])).toEqual({
      template_id: 'tpl-1',
      answers: {},
      signature: { name: 'Jane Doe' },
    });
    // Unsigned: sent as empty, so the API says the signature is missing (at `signature.name`).
    expect(formRequest(consent, []).signature).toEqual({ name: '' });
  });
});

describe('inputOf: the input a refusal names', () => {
  it('maps answers.<key> to its field and signature paths to the signature; other paths to none', () => {
    expect(inputOf('answers.skin')).toBe('skin');
    expect(inputOf('signature')).toBe(SIGNATURE);
    expect(inputOf('signature.name')).toBe(SIGNATURE);
    expect(inputOf('template_id')).toBeNull();
  });
});
