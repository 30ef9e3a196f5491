const hex = (uuid: string) => uuid.replace(/-/g, '');
const uuidOf = (hex32: string) =>
  [hex32.slice(0, 8), hex32.slice(8, 12), hex32.slice(12, 16), hex32.slice(16, 20), hex32.slice(20)].join('-');

/**
 * A key names its practice and its id (`pk_` + both in hex), so a public call finds it with one
 * read, as generated client ids do. It is no secret (API reference, online booking): a guessed one
 * is refused unless an admin made it, and what it opens is only the public operations.
 */
export const publishableKeyOf = (medspaId: string, id: string) => `pk_${hex(medspaId)}${hex(id)}`;

/** The practice and key id a key names, or null when it is not one of ours in form. */
export function parsePublishableKey(key: string): { medspaId: string; keyId: string } | null {
  const match = /^pk_([0-9a-f]{32})([0-9a-f]{32})$/.exec(key);
  return match ? { medspaId: uuidOf(match[1]), keyId: uuidOf(match[2]) } : null;
}
