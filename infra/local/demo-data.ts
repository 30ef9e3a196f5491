/** Demo resources for a practice (providers, rooms, equipment, services, clients, products). */
export async function seedDemoPracticeData(_medspaId: string, _now: Date): Promise<void> {
  // Filled in as the scheduling and catalog resources land.
}
