/**
 * `npx tsx infra/sync-notes.ts`: copies README.md's "Choices where the contract is silent" into
 * lib/openapi/notes.ts (the OpenAPI description embeds it; a Lambda has no README to read).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const section = /## Choices where the contract is silent\n\n([\s\S]*?)\n## /.exec(readme)?.[1].trim();
if (!section) throw new Error('README.md has no "Choices where the contract is silent" section');
const notesFile = join(root, 'lib/openapi/notes.ts');
const notes = readFileSync(notesFile, 'utf8');
const start = notes.indexOf('export const CONTRACT_SILENT_CHOICES = `');
const escaped = section.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');
writeFileSync(notesFile, `${notes.slice(0, start)}export const CONTRACT_SILENT_CHOICES = \`${escaped}\`;\n`);
console.log('lib/openapi/notes.ts now matches README.md');
