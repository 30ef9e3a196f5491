import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import {
  DOCS_ASSETS,
  DOCS_INIT_SCRIPT,
  DOCS_PACKAGE_FILES,
  docsNotFound,
  docsResponse,
  type DocsAsset,
} from '../../lib/docs/page';

type PackageFile = keyof typeof DOCS_PACKAGE_FILES;

/**
 * Swagger UI's files: on Lambda they deploy beside this bundle (the route row's `filesBeside`),
 * so the cold start parses a few KB of code, not 1.9 MB of inlined text; where this module runs
 * from source (the local server, tests) they come from the installed package.
 */
async function load(name: PackageFile): Promise<string> {
  try {
    return await readFile(join(dirname(fileURLToPath(import.meta.url)), name), 'utf8');
  } catch {
    return readFile(createRequire(import.meta.url).resolve(DOCS_PACKAGE_FILES[name]), 'utf8');
  }
}

const loaded = new Map<PackageFile, Promise<string>>();

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
