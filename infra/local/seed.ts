import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashSecret, verifySecret } from '../../lib/auth/secrets';
import { getCredential, resetCredentialSecret } from '../../lib/db/credentials';
import { getPractice } from '../../lib/db/practices';
import { createCredential } from '../../lib/use-cases/auth';
import { createPracticeWithAdmin } from '../../lib/use-cases/practice';
import { seedDemoPracticeData } from './demo-data';

export interface DemoCredentials {
  medspa_id: string;
  client_id: string;
  client_secret: string;
}

/**
 * The demo practice, made on first run. Its admin secret is kept in DATA_DIR/demo.json (local
 * development only: the table itself holds only the hash) so every start can print it.
 */
export async function ensureDemoPractice(dataDir: string, now = new Date()): Promise<DemoCredentials> {
  const file = join(dataDir, 'demo.json');
  const wanted = { clientId: process.env.DEMO_CLIENT_ID, clientSecret: process.env.DEMO_CLIENT_SECRET };
  let demo: DemoCredentials | null = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
  if (demo && !(await getPractice(demo.medspa_id))) demo = null;

  if (!demo) {
    const { practice, credential } = await createPracticeWithAdmin(
      { name: 'Glow Aesthetics (demo)', time_zone: 'America/New_York', currency: 'USD', ...wanted },
      now,
    );
    await seedDemoPracticeData(practice.id, now);
    demo = { medspa_id: practice.id, client_id: credential.client_id, client_secret: credential.client_secret };
  } else if (wanted.clientId && wanted.clientSecret) {
    // DEMO_CLIENT_ID/SECRET set (or changed) after the first run: make exactly that admin credential work.
    const existing = await getCredential(demo.medspa_id, wanted.clientId);
    if (!existing) {
      await createCredential(demo.medspa_id, { name: 'Demo admin', role: 'admin', ...wanted }, now);
    } else if (existing.revoked_at || !(await verifySecret(wanted.clientSecret, existing.secret_hash))) {
      await resetCredentialSecret(demo.medspa_id, wanted.clientId, hashSecret(wanted.clientSecret), now.toISOString());
    }
    demo = { medspa_id: demo.medspa_id, client_id: wanted.clientId, client_secret: wanted.clientSecret };
  }
  writeFileSync(file, JSON.stringify(demo, null, 2), { mode: 0o600 });
  return demo;
}
