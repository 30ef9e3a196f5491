import { Construct } from 'constructs';
import { NestedStack, type NestedStackProps } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { RouteDef } from '../../lib/http/route';
import { ApiFunction } from '../constructs/api-function';
import { HandlerRole } from '../constructs/handler-role';
import { pascal, type StageSettings } from './stage-settings';

export interface RouteGroupStackProps extends NestedStackProps {
  group: string;
  /** The group's rows of the route table. */
  operations: ReadonlyArray<readonly [string, RouteDef]>;
  api: IHttpApi;
  table: ITable;
  signingKey: IKey;
  settings: StageSettings;
  /** Shared by every function of the API. */
  environment: Record<string, string>;
  projectRoot: string;
  /** Absolute entry file of an operation. */
  entryFor: (operation: string, route: RouteDef) => string;
  /** Log groups are `<logGroupPrefix>/<group>/<operation>`. */
  logGroupPrefix: string;
  /** Operations that sign tokens: they get their own role with kms:Sign. */
  signingOperations: ReadonlySet<string>;
}

/**
 * One nested stack per route group (`RouteDef.group`): the group's shared role and, per
 * operation, a Lambda, its log group, its API integration, route and invoke permission
 * (5 resources per operation + 1 per role), so every stack stays far below 500 resources.
 */
export class RouteGroupStack extends NestedStack {
  readonly group: string;
  readonly functions: Record<string, NodejsFunction> = {};
  readonly roles: HandlerRole[] = [];

  constructor(scope: Construct, id: string, props: RouteGroupStackProps) {
    super(scope, id, { description: `medspa-api ${props.settings.stage}: ${props.group} routes`, ...props });
    this.group = props.group;
    const readOnly = props.operations.every(([, route]) => route.method === 'GET');
    const logGroupPrefix = `${props.logGroupPrefix}/${props.group}`;

    let groupRole: HandlerRole | undefined;
    let signerRole: HandlerRole | undefined;
    const roleFor = (operation: string): HandlerRole => {
      const canSign = props.signingOperations.has(operation);
      const existing = canSign ? signerRole : groupRole;
      if (existing) return existing;
      const role = new HandlerRole(this, canSign ? 'TokenSignerRole' : 'HandlerRole', {
        description: `medspa-api ${props.settings.stage}: ${props.group} handlers${canSign ? ' that sign tokens' : ''}`,
        table: props.table,
        signingKey: props.signingKey,
        tableAccess: readOnly ? 'readOnly' : 'readWrite',
        canSign,
        logGroupPrefix,
      });
      this.roles.push(role);
      if (canSign) signerRole = role;
      else groupRole = role;
      return role;
    };

    for (const [operation, route] of props.operations) {
      const id = pascal(operation);
      const fn = new ApiFunction(this, id, {
        entry: props.entryFor(operation, route),
        projectRoot: props.projectRoot,
        description: `${operation}: ${route.method} ${route.path}`,
        role: roleFor(operation).role,
        logGroupName: `${logGroupPrefix}/${operation}`,
        environment: props.environment,
        logRetention: props.settings.logRetention,
        logRemovalPolicy: props.settings.removalPolicy,
      });
      this.functions[operation] = fn.handler;

      new HttpRoute(this, `${id}Route`, {
        httpApi: props.api,
        routeKey: route.fallback ? HttpRouteKey.DEFAULT : HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${id}Integration`, fn.handler),
      });
    }
  }
}
