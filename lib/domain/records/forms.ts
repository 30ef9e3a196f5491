import type { Answers, FormField, FormKind, SubmissionSource } from '../forms';
import type { Versioned } from './common';

/** A form template: its current version (`version`), also stored once per version, never changed (docs/decisions/0029). */
export interface FormTemplateRecord extends Versioned {
  id: string;
  medspa_id: string;
  name: string;
  kind: FormKind;
  body_markdown: string;
  fields: FormField[];
  valid_days: number | null;
  active: boolean;
}

/** A form a client filled in, pinned to the template version it was checked against; written once. */
export interface FormSubmissionRecord extends Versioned {
  id: string;
  medspa_id: string;
  client_id: string;
  template_id: string;
  template_version: number;
  kind: FormKind;
  appointment_id: string | null;
  answers: Answers;
  signature: { name: string; signed_at: string } | null;
  document_sha256: string;
  source: SubmissionSource;
  submitted_at: string;
  expires_at: string | null;
  /** The section-5 consent a consent-kind submission recorded with it. */
  consent_id: string | null;
  /** A public submission's client address and user agent (evidence; never in an answer or a log). */
  client_ip: string | null;
  user_agent: string | null;
}

/** A practice's forms catalog entry per template (read with the appointment detail): what readiness names. */
export interface FormsCatalogEntry {
  name: string;
  version: number;
  valid_days: number | null;
  active: boolean;
}
export interface FormsCatalogRecord {
  medspa_id: string;
  templates: Record<string, FormsCatalogEntry>;
}

/** A client's latest expiry per template over all their submissions (`NEVER` for one that never expires). */
export interface ClientFormsSummaryRecord {
  medspa_id: string;
  client_id: string;
  latest_expiry: Record<string, string>;
}
