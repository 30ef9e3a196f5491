/** Signed consent forms of a client (shown in the appointment detail). Storage lands with the consents resource. */
export async function signedConsentsOf(_medspaId: string, _clientId: string): Promise<Record<string, unknown>[]> {
  return [];
}
