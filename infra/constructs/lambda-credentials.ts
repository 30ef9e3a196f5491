/**
 * Stands in for `@aws-sdk/credential-provider-node` in function bundles (the esbuild alias in
 * ./bundling.ts), never in local runs or tests. Lambda hands a function its role's credentials in
 * environment variables (and container runtimes through the container credentials endpoint), so
 * the SSO, INI-file, process, web-identity and instance-metadata links of the SDK's default chain
 * never run there, yet they are about 90 KB of every bundle (nested STS/SSO clients included).
 * Same exports, same order for the links kept: environment first, then the container endpoint.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { fromHttp } from '@aws-sdk/credential-provider-http';

type Init = Parameters<typeof fromEnv>[0] & Parameters<typeof fromHttp>[0];
type Provider = ReturnType<typeof fromEnv>;
type Credentials = Awaited<ReturnType<Provider>>;

const CONTAINER_ENDPOINTS = ['AWS_CONTAINER_CREDENTIALS_FULL_URI', 'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI'];

export const defaultProvider = (init: Init = {}): Provider => {
  const env = fromEnv(init);
  return async (properties) => {
    if (process.env.AWS_ACCESS_KEY_ID && process.env.AWS_SECRET_ACCESS_KEY) return env(properties);
    // fromHttp refuses at construction when no endpoint is set: built only when one is.
    if (CONTAINER_ENDPOINTS.some((name) => process.env[name])) return fromHttp(init)(properties);
    throw new Error(
      'No AWS credentials: a function bundle reads them from the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY) or the container credentials endpoint',
    );
  };
};

/** @public The SDK imports it from the module this one stands in for. */
export const credentialsWillNeedRefresh = (credentials: Credentials) => credentials?.expiration !== undefined;
/** @public As the SDK's: credentials with an expiration are refreshed five minutes early. */
export const credentialsTreatedAsExpired = (credentials: Credentials) =>
  credentials?.expiration !== undefined && credentials.expiration.getTime() - Date.now() < 300_000;
