import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { DOCS_ASSETS, DOCS_INIT_SCRIPT, docsNotFound, docsResponse, type DocsAsset } from '../../lib/docs/page';

/**
 * Swagger UI's files from the installed package: read from node_modules where there is one (the
 * local server, tests). A Lambda has none; there the CDK bundle holds each file as text, inlined
 * by esbuild from the import below (the import attribute picks esbuild's text loader).
 */
const fromPackage = {
  'swagger-ui.css': () => import('swagger-ui-dist/swagger-ui.css', { with: { type: 'text' } }),
  'swagger-ui-bundle.js': () => import('swagger-ui-dist/swagger-ui-bundle.js', { with: { type: 'text' } }),
} satisfies Record<Exclude<DocsAsset, 'init.js'>, () => Promise<{ default: string }>>;

const loaded = new Map<DocsAsset, Promise<string>>();

async function load(name: keyof typeof fromPackage): Promise<string> {
  let file: string | undefined;
  try {
    file = createRequire(import.meta.url).resolve(`swagger-ui-dist/${name}`);
  } catch {
    file = undefined;
  }
  if (file) return readFile(file, 'utf8');
  const text = (await fromPackage[name]()).default;
  if (typeof text !== 'string') throw new Error(`swagger-ui-dist/${name} was not bundled as text`);
  return text;
}

const assetText = (name: DocsAsset): Promise<string> => {
  if (name === 'init.js') return Promise.resolve(DOCS_INIT_SCRIPT);
  let text = loaded.get(name);
  if (!text) {
    text = load(name);
    loaded.set(name, text);
  }
  return text;
};

export const handler = async (event: APIGatewayProxyEventV2) => {
  const name = event.pathParameters?.asset;
  if (!name || !Object.hasOwn(DOCS_ASSETS, name)) return docsNotFound(event);
  const asset = name as DocsAsset;
  return docsResponse(event, 200, DOCS_ASSETS[asset], await assetText(asset), 3600);
};
