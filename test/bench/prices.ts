/**
 * The price table of `npm run bench:cost`: AWS list prices in us-east-1 as recorded on the date
 * below (on-demand, no free tier, no savings plan, the first volume tier), each with the page it
 * comes from. Data only: test/bench/cost-model.ts does the arithmetic. Update the date with the prices.
 */
export const PRICES_DATE = '2026-11-28';
export const PRICES_REGION = 'us-east-1';

export interface Price {
  usd: number;
  /** What `usd` buys. */
  per: string;
  source: string;
}

const DYNAMODB = 'https://aws.amazon.com/dynamodb/pricing/on-demand/';
const LAMBDA = 'https://aws.amazon.com/lambda/pricing/';
const CLOUDWATCH = 'https://aws.amazon.com/cloudwatch/pricing/';

export const PRICES = {
  dynamoReadRequestUnit: { usd: 0.125 / 1e6, per: 'read request unit (on-demand)', source: DYNAMODB },
  dynamoWriteRequestUnit: { usd: 0.625 / 1e6, per: 'write request unit (on-demand)', source: DYNAMODB },
  dynamoStorageGbMonth: { usd: 0.25, per: 'GB-month of table storage (Standard class)', source: DYNAMODB },
  dynamoPitrGbMonth: { usd: 0.2, per: 'GB-month of continuous backup (PITR)', source: DYNAMODB },
  dynamoStreamReadRequest: {
    usd: 0,
    per: 'stream read request unit: $0.02 per 100,000, free when read by a Lambda trigger (ours are)',
    source: DYNAMODB,
  },
  lambdaRequest: { usd: 0.2 / 1e6, per: 'invocation', source: LAMBDA },
  lambdaArmGbSecond: { usd: 0.0000133334, per: 'GB-second, arm64 (first 7.5 billion GB-s a month)', source: LAMBDA },
  httpApiRequest: {
    usd: 1.0 / 1e6,
    per: 'HTTP API request (first 300 million a month, 512 KB increments)',
    source: 'https://aws.amazon.com/api-gateway/pricing/',
  },
  eventBridgeCustomEvent: {
    usd: 1.0 / 1e6,
    per: 'custom event published (64 KB chunk)',
    source: 'https://aws.amazon.com/eventbridge/pricing/',
  },
  sqsRequest: {
    usd: 0.4 / 1e6,
    per: 'standard queue request (64 KB chunk)',
    source: 'https://aws.amazon.com/sqs/pricing/',
  },
  logsIngestedGb: { usd: 0.5, per: 'GB of CloudWatch Logs ingested (Standard class)', source: CLOUDWATCH },
  logsStoredGbMonth: { usd: 0.03, per: 'GB-month of CloudWatch Logs archived (compressed)', source: CLOUDWATCH },
  alarmMetricMonth: { usd: 0.1, per: 'standard-resolution alarm metric a month', source: CLOUDWATCH },
  xrayTraceRecorded: { usd: 5.0 / 1e6, per: 'trace recorded', source: 'https://aws.amazon.com/xray/pricing/' },
  kmsKeyMonth: { usd: 1.0, per: 'customer managed key a month', source: 'https://aws.amazon.com/kms/pricing/' },
  kmsSymmetricRequest: {
    usd: 0.03 / 1e4,
    per: 'symmetric request (Decrypt, GenerateDataKey)',
    source: 'https://aws.amazon.com/kms/pricing/',
  },
  kmsAsymmetricRequest: {
    usd: 0.15 / 1e4,
    per: 'asymmetric request except RSA 2048 (ECC Sign)',
    source: 'https://aws.amazon.com/kms/pricing/',
  },
  secretMonth: {
    usd: 0.4,
    per: 'secret a month (read at deploy: no API calls at run time)',
    source: 'https://aws.amazon.com/secrets-manager/pricing/',
  },
  dataTransferOutGb: {
    usd: 0.09,
    per: 'GB out to the internet from the region (first 10 TB)',
    source: 'https://aws.amazon.com/ec2/pricing/on-demand/#Data_Transfer',
  },
  cloudFrontRequest: {
    usd: 0.01 / 1e4,
    per: 'HTTPS request, United States',
    source: 'https://aws.amazon.com/cloudfront/pricing/',
  },
  cloudFrontTransferOutGb: {
    usd: 0.085,
    per: 'GB out to the internet, United States (first 10 TB)',
    source: 'https://aws.amazon.com/cloudfront/pricing/',
  },
  cloudFrontFunctionInvocation: {
    usd: 0.1 / 1e6,
    per: 'CloudFront Functions invocation',
    source: 'https://aws.amazon.com/cloudfront/pricing/',
  },
  wafWebAclMonth: { usd: 5.0, per: 'web ACL a month', source: 'https://aws.amazon.com/waf/pricing/' },
  wafRuleMonth: { usd: 1.0, per: 'rule (or rule group) a month', source: 'https://aws.amazon.com/waf/pricing/' },
  wafRequest: { usd: 0.6 / 1e6, per: 'request inspected', source: 'https://aws.amazon.com/waf/pricing/' },
} as const satisfies Record<string, Price>;

export type PriceName = keyof typeof PRICES;
