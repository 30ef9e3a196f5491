import { createDocument, type ZodOpenApiPathsObject } from 'zod-openapi';
import { version as packageVersion } from '../../package.json';
import { DEFAULT_SERVER_URL, SERVER_DESCRIPTIONS } from '../docs/openapi-file';
import { callableRoutes } from '../http/route';
import { routes } from '../routes';
import {
  DOC_ERROR_STATUS,
  ERROR_CODES,
  errorExamples,
  FIELD_PROBLEM,
  transportResponses,
  withErrorResponses,
} from './errors';
import { addExamples } from './examples';
import { operationOf, tagOf } from './operations';
import { PROSE } from './prose';
import { addComponents, completeParameters, nameInputComponents, RENDERING } from './rendering';
import { definitions, fill } from './text';
import { REQUEST_HEADER_PARAMETERS, RESPONSE_HEADERS } from './traffic';
import { eventComponents, webhooksOf } from './webhooks';

/**
 * The OpenAPI 3.1 document, built from the route table: each complete row is one operation
 * (./operations.ts) whose zod schemas zod-openapi renders (JSON Schema 2020-12, OpenAPI 3.1's
 * dialect); the prose for people is Markdown in docs/api and docs/guide (infra/openapi-prose.ts).
 * Nothing is written twice.
 */

type Json = Record<string, any>;

export { DOC_ERROR_STATUS, type DocErrorCode } from './errors';

function infoDescription(): string {
  // The body limit and the roles are written out in docs/guide/conventions.md, for people reading
  // it on its own; test/unit/openapi-prose.test.ts holds them to MAX_BODY_BYTES and ROLES.
  return fill(PROSE.overview, {
    conventions: PROSE.conventions,
    error_rows: ERROR_CODES.map((code) => `| ${DOC_ERROR_STATUS[code]} | \`${code}\` |`).join('\n'),
    contract_silent_choices: PROSE.choices,
  });
}

const tokenUrl = (serverUrl: string) => `${serverUrl}${routes.createToken.path}`;

/**
 * The document for one server: `servers` and the OAuth token URL name it. The rest does not
 * depend on it, so the file the OpenAPI functions serve is made with marks in their place
 * (lib/openapi/file.ts), filled per request.
 */
export function withServer(document: Json, serverUrl: string, description: string = SERVER_DESCRIPTIONS.request): Json {
  return {
    ...document,
    servers: [{ url: serverUrl, description }],
    components: {
      ...document.components,
      securitySchemes: {
        ...document.components.securitySchemes,
        oauth2: {
          ...document.components.securitySchemes.oauth2,
          flows: { clientCredentials: { tokenUrl: tokenUrl(serverUrl), scopes: {} } },
        },
      },
    },
  };
}

/** Builds the whole document from `routes`; pure, so callers may cache it. */
export function buildOpenApiDocument(options: { serverUrl?: string } = {}): Json {
  return render(options.serverUrl, []);
}

/** The document plus what the tests and generators look at beside it (not bundled where only the document is served). */
export function buildAll(options: { serverUrl?: string } = {}) {
  const missingExamples: string[] = [];
  const document = render(options.serverUrl, missingExamples);
  return { document, missingExamples };
}

/** The document for `serverUrl` (else the local server); where no example could be made goes to `missing`. */
function render(requestedServer: string | undefined, missing: string[]): Json {
  const paths: ZodOpenApiPathsObject = {};
  const groups: string[] = [];
  const { responses: errorResponses } = withErrorResponses(() => {
    for (const [operation, route] of callableRoutes(routes)) {
      paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operationOf(operation, route) };
      if (!groups.includes(tagOf(route))) groups.push(tagOf(route));
    }
  });
  const tagLines = definitions(PROSE.tags);
  const serverUrl = requestedServer ?? DEFAULT_SERVER_URL;
  // OpenAPI 3.1's `info.summary`, which zod-openapi's type does not list yet.
  const info = {
    title: 'medspa-api',
    version: packageVersion,
    summary: 'Practice-management API for med-spas',
    description: infoDescription(),
    license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
  };
  const rendered = createDocument(
    {
      openapi: '3.1.0',
      info,
      servers: [],
      tags: [...groups, 'events'].map((name) => ({ name, description: tagLines[name] ?? name })),
      paths,
      webhooks: webhooksOf(),
      components: {
        schemas: { FieldProblem: FIELD_PROBLEM },
        responses: { ...transportResponses(), ...errorResponses },
        examples: errorExamples(),
        parameters: REQUEST_HEADER_PARAMETERS,
        headers: RESPONSE_HEADERS,
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'An access token from `POST /v1/auth/token`.',
          },
          oauth2: {
            type: 'oauth2',
            description: 'The same token, obtained with the OAuth 2.0 client-credentials grant.',
            flows: { clientCredentials: { tokenUrl: tokenUrl(serverUrl), scopes: {} } },
          },
          clientBasic: {
            type: 'http',
            scheme: 'basic',
            description: 'Token endpoint only: `client_id:client_secret` (RFC 6749 2.3.1).',
          },
          publishableKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Publishable-Key',
            description:
              'A publishable key (`pk_...`, from `POST /v1/publishable-keys`): not a secret, for browsers; `/v1/public/*` only.',
          },
        },
      },
    },
    RENDERING,
  ) as Json;
  addComponents(rendered, eventComponents(RENDERING));
  completeParameters(rendered);
  const document = withServer(
    nameInputComponents(rendered),
    serverUrl,
    requestedServer ? 'The API' : SERVER_DESCRIPTIONS.local,
  );
  addExamples(document, missing);
  return document;
}
