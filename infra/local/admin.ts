/**
 * `npm run admin -- <command>`: practice setup beside a running server (same DATA_DIR) or
 * against DYNAMODB_ENDPOINT; `npm run admin -- help` prints the commands with an example each.
 *   create-practice --name NAME [--time-zone ZONE] [--currency USD] [--waitlisted] [--json]
 *   create-credential --medspa-id ID --role ROLE [--name NAME] [--json]
 *   set-api-access --medspa-id ID --access enabled|waitlisted
 *   rebuild-aggregates --medspa-id ID [--verify] [--settle-ms 5000] [--from-month YYYY-MM] [--through-month YYYY-MM] [--json]
 */
import { parseArgs } from 'node:util';
import { ROLES, type Role } from '../../lib/auth/roles';
import { isValidTimeZone } from '../../lib/domain/time';
import { getPractice } from '../../lib/db/practices';
import { createCredential } from '../../lib/use-cases/auth';
import { changePractice, createPracticeWithAdmin } from '../../lib/use-cases/practice';
import { rebuildAggregates } from '../../lib/use-cases/report-rebuild';
import { openLocalEnvironment } from './environment';

const USAGE = `usage: npm run -s admin -- COMMAND [options]   (beside a running npm start, same DATA_DIR)

  create-practice --name NAME [--time-zone ZONE] [--currency USD] [--waitlisted] [--json]
      a practice and its first admin credential
      e.g. npm run -s admin -- create-practice --name "Glow" --time-zone America/Chicago --json
  create-credential --medspa-id ID --role ${ROLES.join('|')} [--name NAME] [--json]
      another API credential of a practice (the secret is shown once)
      e.g. npm run -s admin -- create-credential --medspa-id ID --role front_desk --json
  set-api-access --medspa-id ID --access enabled|waitlisted
      open or close a practice's API access
      e.g. npm run -s admin -- set-api-access --medspa-id ID --access enabled
  rebuild-aggregates --medspa-id ID [--verify] [--settle-ms 5000] [--from-month YYYY-MM] [--through-month YYYY-MM] [--json]
      recount the report counters from the records (--verify: only compare)
      e.g. npm run -s admin -- rebuild-aggregates --medspa-id ID --verify --json
  help, --help
      this text

--json answers are one line of snake_case JSON on stdout.`;

/** The API's and the other commands' key style for `--json` answers. */
const snakeCaseKeys = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(snakeCaseKeys)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value).map(([key, inner]) => [
            key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
            snakeCaseKeys(inner),
          ]),
        )
      : value;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'time-zone': { type: 'string' },
      currency: { type: 'string' },
      waitlisted: { type: 'boolean' },
      'medspa-id': { type: 'string' },
      role: { type: 'string' },
      access: { type: 'string' },
      json: { type: 'boolean' },
      verify: { type: 'boolean' },
      'settle-ms': { type: 'string' },
      'from-month': { type: 'string' },
      'through-month': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals[0];
  if (values.help || command === 'help') {
    console.log(USAGE);
    return;
  }
  if (!command) fail(USAGE);
  // Logs go to stderr so `--json` leaves exactly one line on stdout.
  process.env.LOG_LEVEL ??= 'WARN';
  const environment = await openLocalEnvironment({ owner: false });
  const now = new Date();
  try {
    if (command === 'create-practice') {
      if (!values.name) fail('--name is required');
      const timeZone = values['time-zone'] ?? 'America/New_York';
      if (!isValidTimeZone(timeZone)) fail(`unknown time zone: ${timeZone}`);
      const { practice, credential } = await createPracticeWithAdmin(
        {
          name: values.name,
          time_zone: timeZone,
          currency: values.currency ?? 'USD',
          api_access: values.waitlisted ? 'waitlisted' : 'enabled',
        },
        now,
      );
      const result = {
        medspa_id: practice.id,
        client_id: credential.client_id,
        client_secret: credential.client_secret,
      };
      console.log(
        values.json ? JSON.stringify(result) : `Created practice ${practice.name}\n${JSON.stringify(result, null, 2)}`,
      );
    } else if (command === 'create-credential') {
      const medspaId = values['medspa-id'] ?? fail('--medspa-id is required');
      const role = values.role as Role;
      if (!ROLES.includes(role)) fail(`--role must be one of ${ROLES.join(', ')}`);
      if (!(await getPractice(medspaId))) fail(`no practice ${medspaId}`);
      const credential = await createCredential(medspaId, { name: values.name ?? `${role} credential`, role }, now);
      const result = {
        medspa_id: medspaId,
        client_id: credential.client_id,
        client_secret: credential.client_secret,
        role,
      };
      console.log(values.json ? JSON.stringify(result) : JSON.stringify(result, null, 2));
    } else if (command === 'set-api-access') {
      const medspaId = values['medspa-id'] ?? fail('--medspa-id is required');
      if (values.access !== 'enabled' && values.access !== 'waitlisted') fail('--access must be enabled or waitlisted');
      if (!(await getPractice(medspaId))) fail(`no practice ${medspaId}`);
      await changePractice(medspaId, { api_access: values.access }, { now });
      console.log(JSON.stringify({ medspa_id: medspaId, api_access: values.access }));
    } else if (command === 'rebuild-aggregates') {
      // Recomputes every report counter from the appointments, payments and sales, beside a
      // running server and stream (lib/use-cases/report-rebuild.ts explains how).
      const medspaId = values['medspa-id'] ?? fail('--medspa-id is required');
      if (!(await getPractice(medspaId))) fail(`no practice ${medspaId}`);
      const settleMs = values['settle-ms'] === undefined ? undefined : Number(values['settle-ms']);
      if (settleMs !== undefined && !(Number.isInteger(settleMs) && settleMs >= 0))
        fail('--settle-ms must be a whole number of milliseconds');
      for (const option of ['from-month', 'through-month'] as const) {
        if (values[option] !== undefined && !/^\d{4}-(0[1-9]|1[0-2])$/.test(values[option]!))
          fail(`--${option} must be YYYY-MM`);
      }
      const result = await rebuildAggregates(medspaId, {
        settleMs,
        fromMonth: values['from-month'],
        throughMonth: values['through-month'],
        verifyOnly: values.verify ?? false,
        log: values.json ? undefined : (line) => console.error(line),
      });
      const answer = snakeCaseKeys(result);
      console.log(values.json ? JSON.stringify(answer) : JSON.stringify(answer, null, 2));
    } else {
      fail(USAGE);
    }
  } finally {
    await environment.stop();
  }
}

main().catch((error) => {
  console.error(`admin failed: ${(error as Error).message}`);
  process.exit(1);
});
