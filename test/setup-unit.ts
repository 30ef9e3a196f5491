import { afterAll } from 'vitest';
import { setClock } from '../lib/clock';
import { resetConfig } from '../lib/config';

// Unit files share one module graph per worker (vitest.config.ts, isolate: false): each file
// starts from the environment and clock the first one saw, whatever the one before it changed.
const initial = ((globalThis as { __unitEnv?: NodeJS.ProcessEnv }).__unitEnv ??= { ...process.env });
for (const name of Object.keys(process.env)) if (!(name in initial)) delete process.env[name];
Object.assign(process.env, initial);
resetConfig();
setClock(null);

afterAll(() => setClock(null));
