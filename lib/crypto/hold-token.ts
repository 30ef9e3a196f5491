import { open, seal } from './sealed';

/**
 * Hold tokens of public holds (API reference, holds): sealed like manage tokens, bound to the
 * practice and the hold, valid until the hold expires. Whoever holds one may book or release that
 * one hold; any other use is indistinguishable from a missing hold.
 */
const PURPOSE = 'medspa-hold';

export const issueHoldToken = (hold: { medspa_id: string; id: string; expires_at: string }): string =>
  seal(PURPOSE, [hold.medspa_id, hold.id], 0, Math.ceil(Date.parse(hold.expires_at) / 1000));

/**
 * Whether `token` was issued for this hold of this practice: 'valid', 'expired' (a genuine token
 * of this hold past its expiry: the hold expired), or 'invalid' (wrong, tampered, another hold's).
 */
export function holdTokenState(
  medspaId: string,
  holdId: string,
  token: string | undefined,
  now: Date,
): 'valid' | 'expired' | 'invalid' {
  if (!token) return 'invalid';
  const opened = open(PURPOSE, [medspaId, holdId], token, Math.floor(now.getTime() / 1000));
  return opened.ok ? 'valid' : opened.reason;
}
