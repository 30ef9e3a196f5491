/** Reading the document's Markdown prose (docs/api and parts of docs/guide, generated into ./prose.ts). */

/** Fills a prose file's `{{name}}` placeholders; one without a value is a mistake, thrown when the document is built. */
export function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`OpenAPI prose: no value for {{${name}}}`);
    return values[name];
  });
}

/** A prose file's `- **name**: text` lines, by name. */
export const definitions = (markdown: string): Record<string, string> =>
  Object.fromEntries([...markdown.matchAll(/^- \*\*([\w-]+)\*\*: (.+)$/gm)].map(([, name, text]) => [name, text]));
