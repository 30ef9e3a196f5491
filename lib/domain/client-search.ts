/**
 * Client search terms (API reference, other resources: `GET /v1/clients?q=` matches a prefix of first name, last
 * name, full name, email or phone digits, case-insensitive). Terms and queries go through the
 * same normalisation, so a prefix of a term is a prefix of the normalised text.
 */

/** Longer terms and queries are cut here: prefix search past 100 characters adds nothing, and sort keys stay small. */
export const MAX_TERM_LENGTH = 100;
/** Fewer digits than this is not read as (part of) a phone number. */
export const MIN_PHONE_DIGITS = 3;

/**
 * Lowercase, diacritics stripped (NFKD, combining marks removed), `#` (the key separator) as a
 * space, whitespace collapsed and trimmed, at most MAX_TERM_LENGTH characters.
 */
export function normalizeSearchText(text: string): string {
  const plain = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/#/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return Array.from(plain).slice(0, MAX_TERM_LENGTH).join('').trimEnd();
}

const digitsOf = (text: string) => text.replace(/[^0-9]/g, '').slice(0, MAX_TERM_LENGTH);

/** A phone's digits; for a +1 (NANP) number also the 10 national digits, since people search without the country code. */
function phoneTerms(phone: string): string[] {
  const digits = digitsOf(phone);
  if (!digits) return [];
  const national = phone.trim().startsWith('+1') && digits.length === 11 ? [digits.slice(1)] : [];
  return [digits, ...national];
}

export interface SearchableClient {
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
}

/** The distinct terms a client is found by: first, last, "first last", email, phone digits. */
export function clientSearchTerms(client: SearchableClient): string[] {
  const terms = [
    normalizeSearchText(client.first_name),
    normalizeSearchText(client.last_name),
    normalizeSearchText(`${client.first_name} ${client.last_name}`),
    client.email ? normalizeSearchText(client.email) : '',
    ...(client.phone ? phoneTerms(client.phone) : []),
  ];
  return [...new Set(terms.filter(Boolean))];
}

/**
 * The term prefix a query stands for: its digits when it looks like a phone number (only digits,
 * spaces and `+ ( ) . -`, at least MIN_PHONE_DIGITS digits: `555-01` is `55501`), else the
 * normalised text. Empty: no search.
 */
export function searchPrefixOf(query: string): string {
  const digits = digitsOf(query);
  if (digits.length >= MIN_PHONE_DIGITS && /^[0-9\s+().-]+$/.test(query.trim())) return digits;
  return normalizeSearchText(query);
}
