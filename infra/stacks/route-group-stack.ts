import type { Construct } from 'constructs';
import { Duration, NestedStack, type NestedStackProps } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { TableReads, TableWrites } from '../../lib/db/table-writes';
import {
  methodsOf,
  photoAccessOf,
  readsTable,
  secretsOf,
  tableReadsOf,
  tableWritesOf,
  verifiesWithTokenKey,
  type RouteDef,
} from '../../lib/http/route';
import { AppFunction, allowLogGroupsUnder, type FunctionLogs, type FunctionTracing } from '../constructs/app-function';
import { FunctionRole, tableAccessSignature } from '../constructs/function-role';
import { acknowledge, bothPacks } from '../constructs/nag';
import { photosBucketName } from '../constructs/data-store';
import type { StatefulRefs } from './stateful-refs';
import { pascal, type StageSettings } from './stage-settings';

export interface RouteGroupStackProps extends NestedStackProps {
  group: string;
  /** The group's rows of the route table. */
  operations: ReadonlyArray<readonly [string, RouteDef]>;
  api: IHttpApi;
  data: StatefulRefs;
  settings: StageSettings;
  /** Shared by every function of the API. */
  environment: Record<string, string>;
  projectRoot: string;
  /** Absolute entry file of an operation. */
  entryFor: (operation: string, route: RouteDef) => string;
  /** Log groups are `<logGroupPrefix>/<group>/<operation>`. */
  logGroupPrefix: string;
  logs: FunctionLogs;
  /** Operations that sign tokens: they get their own role with kms:Sign. */
  signingOperations: ReadonlySet<string>;
  /** The token key's public half (TOKEN_PUBLIC_KEY), read at deploy. */
  tokenPublicKey: string;
}

/**
 * One nested stack per route group (`RouteDef.group`): one role per distinct grant set (the
 * route's declared reads and writes, `tableReadsOf` and `tableWritesOf`, whether it signs tokens, the secrets it reads), shared by the functions
 * that need exactly it, and, per operation, a Lambda, its log group, its API integration, route and
 * invoke permission: 5 resources per operation + 2 per role, far below 500 per stack.
 */
export class RouteGroupStack extends NestedStack {
  readonly group: string;
  readonly functions: Record<string, NodejsFunction> = {};
  readonly roles: FunctionRole[] = [];

  constructor(scope: Construct, id: string, props: RouteGroupStackProps) {
    super(scope, id, { description: `medspa-api ${props.settings.stage}: ${props.group} routes`, ...props });
    this.group = props.group;
    const { table, signingKey, secrets } = props.data;
    const logGroupPrefix = `${props.logGroupPrefix}/${props.group}`;

    const roles = new Map<string, FunctionRole>();
    const roleFor = (
      operation: string,
      table: { writes: TableWrites; reads: TableReads } | undefined,
      tokenKey: 'sign' | 'verify' | 'none',
      secretNames: readonly string[],
      photoAccess: readonly string[],
    ): FunctionRole => {
      // The secrets and photo access too: a function reads only the secrets its row names and touches photos only as it says (each is a grant on the role).
      const key = `${table ? tableAccessSignature(table.writes, table.reads) : 'no table'}:${tokenKey}:${secretNames.join(',')}:${photoAccess.join(',')}`;
      let role = roles.get(key);
      if (!role) {
        // Named after the first operation using it: stable while that operation's grants are.
        role = new FunctionRole(this, `${pascal(operation)}Role`, {
          description: `medspa-api ${props.settings.stage}: ${props.group} handlers ${table ? `writing ${Object.keys(table.writes).join(', ') || 'nothing'}` : 'without table access'}${tokenKey === 'sign' ? ', signing tokens' : ''}`,
        });
        allowLogGroupsUnder(role, logGroupPrefix);
        roles.set(key, role);
        this.roles.push(role);
      }
      return role;
    };

    for (const [operation, route] of props.operations) {
      const id = pascal(operation);
      const tableAccess = readsTable(route) ? { writes: tableWritesOf(route), reads: tableReadsOf(route) } : undefined;
      const tokenKey = props.signingOperations.has(operation)
        ? 'sign'
        : verifiesWithTokenKey(route)
          ? 'verify'
          : 'none';
      const fn = new AppFunction(this, id, {
        entry: props.entryFor(operation, route),
        projectRoot: props.projectRoot,
        description: `${operation}: ${route.method} ${route.path}`,
        role: roleFor(operation, tableAccess, tokenKey, secretsOf(route), photoAccessOf(route)),
        logGroupName: `${logGroupPrefix}/${operation}`,
        logs: props.logs,
        environment: props.environment,
        ...(route.timeoutSeconds ? { timeout: Duration.seconds(route.timeoutSeconds) } : {}),
        filesBeside: route.filesBeside,
        tracing: routeTracing(route),
      });
      if (tableAccess) fn.bindTable(table, tableAccess.writes, tableAccess.reads);
      if (tokenKey !== 'none') fn.bindSigningKey(signingKey, props.tokenPublicKey, tokenKey === 'sign');
      for (const name of secretsOf(route)) fn.bindSecret(name, secrets[name]);
      fn.bindPhotos(props.data.photos, photosBucketName(props.settings.stage), photoAccessOf(route));
      this.functions[operation] = fn.fn;
      acknowledge(fn, {
        ...bothPacks(
          undefined,
          'LambdaDLQ',
          'Invoked synchronously by API Gateway: the caller gets the error; a dead-letter queue applies to asynchronous invocations only.',
        ),
        ...bothPacks(
          undefined,
          'LambdaConcurrency',
          'API functions are capped by the stage throttling (rate/burst) instead: reserving concurrency for each of ~60 functions would carve up the account pool and throttle some routes while others idle.',
        ),
      });

      // One integration; an API route per method the row answers (HEAD is a route of its own).
      const integration = new HttpLambdaIntegration(`${id}Integration`, fn.fn);
      const routeKeys = route.fallback
        ? [['Route', HttpRouteKey.DEFAULT] as const]
        : methodsOf(route).map(
            (method) =>
              [
                method === route.method ? 'Route' : 'HeadRoute',
                HttpRouteKey.with(route.path, HttpMethod[method]),
              ] as const,
          );
      for (const [suffix, routeKey] of routeKeys) {
        const httpRoute = new HttpRoute(this, `${id}${suffix}`, { httpApi: props.api, routeKey, integration });
        acknowledge(
          httpRoute,
          bothPacks(
            'APIG4',
            undefined,
            route.auth === 'public'
              ? 'A public route of the contract (health, JWKS, token exchange, OpenAPI, the CORS preflight, the 404 fallback).'
              : route.auth === 'publishable'
                ? "Online booking from browsers: the shared middy chain checks the publishable key, its allowed origins and the practice's online booking (lib/http/auth.ts)."
                : "Authorized in the function: the shared middy chain verifies the ES256 token against our JWKS, checks revocation and the route's roles (lib/http/auth.ts), so denials are audited and answered in the contract's envelope.",
          ),
        );
      }
    }
  }
}

/**
 * X-Ray per route (docs/decisions/0023): reads (GET) and a POST that writes no record (the token
 * exchange, about a third of all traces otherwise) pass through, so the hot polls, searches and
 * token exchanges record no traces (HTTP APIs send no trace header, so none at all); changes stay
 * actively traced, where a trace explains a slow or failed write across its transaction and the pipeline.
 */
export const routeTracing = (route: RouteDef): FunctionTracing =>
  route.method === 'GET' || !route.writes ? 'passThrough' : 'active';
