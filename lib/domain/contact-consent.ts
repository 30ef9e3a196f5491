/**
 * Contact consent (API reference, section 14, "Contact consent"): whether a client agreed to be
 * contacted on a channel for a purpose, as an append-only history of changes and the current state
 * they add up to. Pure: the data layer stores what these functions decide
 * (docs/decisions/0030-contact-consent-history.md).
 */

export const CONSENT_CHANNELS = ['sms', 'email'] as const;
export const CONSENT_PURPOSES = ['marketing', 'transactional'] as const;
export const CONSENT_STATUSES = ['granted', 'revoked'] as const;
export const CONSENT_SOURCES = ['staff', 'public', 'import'] as const;
/** The consents `GET /v1/clients?consent=` lists by: the marketing ones an SMS or email tool sends on. */
export const LISTED_CONSENTS = ['sms_marketing', 'email_marketing'] as const;

export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];
export type ConsentPurpose = (typeof CONSENT_PURPOSES)[number];
export type ConsentStatus = (typeof CONSENT_STATUSES)[number];
export type ConsentSource = (typeof CONSENT_SOURCES)[number];
export type ListedConsent = (typeof LISTED_CONSENTS)[number];

/** The history keeps everything; a GET shows this many of the latest changes (one bounded Query). */
export const HISTORY_SHOWN = 100;

interface ConsentEvidence {
  text_shown: string;
}

/** A change as asked for: a PUT's, or a public booking's grant. */
export interface ConsentChange {
  channel: ConsentChannel;
  purpose: ConsentPurpose;
  status: ConsentStatus;
  source: ConsentSource;
  evidence: ConsentEvidence | null;
}

/** The current state of one channel and purpose. */
export interface CurrentConsent {
  channel: ConsentChannel;
  purpose: ConsentPurpose;
  status: ConsentStatus;
  source: ConsentSource;
  updated_at: string;
}

/** One recorded change: immutable, numbered by `sequence` (1, 2, ... per client, in commit order). */
export interface RecordedConsentChange extends ConsentChange {
  sequence: number;
  recorded_at: string;
}

/** A client's consent state: `version` is the number of changes recorded (0: none yet). */
export interface ConsentState {
  version: number;
  current: CurrentConsent[];
}

export const NO_CONSENTS: ConsentState = { version: 0, current: [] };

const samePair = (a: { channel: string; purpose: string }, b: { channel: string; purpose: string }) =>
  a.channel === b.channel && a.purpose === b.purpose;

/** The listed consent a channel and purpose is, if any (`sms` + `marketing` is `sms_marketing`). */
export function listedConsentOf(channel: ConsentChannel, purpose: ConsentPurpose): ListedConsent | null {
  const name = `${channel}_${purpose}`;
  return (LISTED_CONSENTS as readonly string[]).includes(name) ? (name as ListedConsent) : null;
}

/** Current states in a stable order: channel, then purpose, as the contract lists them. */
const order = (consent: { channel: ConsentChannel; purpose: ConsentPurpose }) =>
  CONSENT_CHANNELS.indexOf(consent.channel) * CONSENT_PURPOSES.length + CONSENT_PURPOSES.indexOf(consent.purpose);

/**
 * The state after `changes` (in order) recorded at `at`: each is a history entry with the next
 * sequence number, and its pair's current state becomes it. `listed` says, per listed consent the
 * changes touch, whether the client is now on its list (granted) or off it.
 */
export function applyConsentChanges(
  state: ConsentState,
  changes: readonly ConsentChange[],
  at: string,
): { state: ConsentState; recorded: RecordedConsentChange[]; listed: Partial<Record<ListedConsent, boolean>> } {
  let current = state.current;
  const recorded: RecordedConsentChange[] = [];
  const listed: Partial<Record<ListedConsent, boolean>> = {};
  for (const change of changes) {
    recorded.push({ ...change, sequence: state.version + recorded.length + 1, recorded_at: at });
    const next: CurrentConsent = {
      channel: change.channel,
      purpose: change.purpose,
      status: change.status,
      source: change.source,
      updated_at: at,
    };
    current = [...current.filter((consent) => !samePair(consent, change)), next];
    const name = listedConsentOf(change.channel, change.purpose);
    if (name) listed[name] = change.status === 'granted';
  }
  current.sort((a, b) => order(a) - order(b));
  return { state: { version: state.version + recorded.length, current }, recorded, listed };
}

/** What a public booking may send (API reference, section 14): a `true` asks for that grant. */
export interface PublicConsents {
  sms_marketing?: boolean;
  email_marketing?: boolean;
  text_shown: string;
}

/**
 * A public booking's grants: each `true` whose consent is not granted already (a repeat booking
 * records nothing new, so it never fails and never fills the history). `false` or absent asks
 * nothing: a public booking never revokes.
 */
export function publicGrants(state: ConsentState, consents: PublicConsents | undefined): ConsentChange[] {
  if (!consents) return [];
  return LISTED_CONSENTS.filter((name) => consents[name] === true).flatMap((name) => {
    const [channel, purpose] = name.split('_') as [ConsentChannel, ConsentPurpose];
    const now = state.current.find((consent) => samePair(consent, { channel, purpose }));
    if (now?.status === 'granted') return [];
    return [{ channel, purpose, status: 'granted', source: 'public', evidence: { text_shown: consents.text_shown } }];
  });
}
