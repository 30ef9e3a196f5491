import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/**
 * GET /docs: the OpenAPI document rendered for people by Swagger UI, every file served by this
 * API from the installed `swagger-ui-dist` package (nothing from a CDN), "try it" calling the
 * same host. Plain Lambda handlers, not the JSON middy chain: these answers are HTML, CSS and JS.
 */

/** The files the page loads, with their content types; `init.js` is ours, the rest are the package's. */
export const DOCS_ASSETS = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'init.js': 'text/javascript; charset=utf-8',
} as const;
export type DocsAsset = keyof typeof DOCS_ASSETS;

/** The package's files among them: deployed beside the asset function's bundle, read from disk. */
export const DOCS_PACKAGE_FILES = {
  'swagger-ui.css': 'swagger-ui-dist/swagger-ui.css',
  'swagger-ui-bundle.js': 'swagger-ui-dist/swagger-ui-bundle.js',
} as const satisfies Partial<Record<DocsAsset, string>>;
export const DOCS_ASSET_NAMES = Object.keys(DOCS_ASSETS) as DocsAsset[];

/** The document the page renders: the versioned path of the API reference's conventions. */
export const DOCS_SPEC_PATH = '/v1/openapi.json';

/** Scripts and styles from this host only; Swagger UI sets inline styles, and shows data: images. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function docsHtml(version: string): string {
  const asset = (name: DocsAsset) => `/docs/${name}?v=${encodeURIComponent(version)}`;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>medspa-api reference</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="${asset('swagger-ui.css')}">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${asset('swagger-ui-bundle.js')}"></script>
  <script src="${asset('init.js')}"></script>
</body>
</html>
`;
}

/** Our initializer (a file, not an inline script, so the CSP needs no 'unsafe-inline' scripts). */
export const DOCS_INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(DOCS_SPEC_PATH)},
    dom_id: '#swagger-ui',
    deepLinking: true,
    // Tags start folded: a document this long renders its operations as a reader opens each tag
    // (expanded all at once, headless chromium stops rendering after the first tag).
    docExpansion: 'none',
    defaultModelsExpandDepth: 0,
    displayOperationId: true,
    displayRequestDuration: true,
    filter: true,
    tryItOutEnabled: true,
    validatorUrl: null,
  });
});
`;

export function docsResponse(
  event: APIGatewayProxyEventV2,
  status: number,
  contentType: string,
  body: string,
  cacheSeconds: number,
): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: status,
    headers: {
      'content-type': contentType,
      'cache-control': cacheSeconds > 0 ? `public, max-age=${cacheSeconds}` : 'no-store',
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-request-id': event.requestContext?.requestId ?? '',
    },
    body,
  };
}

/** Unknown asset: the contract's 404 envelope. */
export function docsNotFound(event: APIGatewayProxyEventV2): APIGatewayProxyStructuredResultV2 {
  const requestId = event.requestContext?.requestId ?? '';
  return {
    statusCode: 404,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-request-id': requestId,
    },
    body: JSON.stringify({
      success: false,
      error: { code: 'NOT_FOUND', message: `No route for GET ${event.rawPath}`, request_id: requestId },
    }),
  };
}
