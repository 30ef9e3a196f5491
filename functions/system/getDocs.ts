import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { version } from '../../package.json';
import { docsHtml, docsResponse } from '../../lib/docs/page';

const html = docsHtml(version);

export const handler = async (event: APIGatewayProxyEventV2) =>
  docsResponse(event, 200, 'text/html; charset=utf-8', html, 300);
