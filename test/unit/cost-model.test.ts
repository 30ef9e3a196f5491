import { describe, expect, it } from 'vitest';
import {
  billedMs,
  conditionCheckUnits,
  indexWriteUnits,
  itemReadUnits,
  itemSize,
  itemWriteUnits,
  numberSize,
  opCost,
  PLATFORM_LOG_BYTES_PER_INVOCATION,
  describeVerdict,
  goalVerdict,
  queryReadUnits,
  streamInvocationsPerSecond,
  total,
  xrayTracesPerSecond,
  NO_USAGE,
  type OpUsage,
} from '../bench/cost-model';
import type { StackFacts } from '../bench/cost-stack';
import { floorStack, monthlyBill } from '../bench/cost-workload';
import { PRICES, PRICES_DATE } from '../bench/prices';

describe('bench:cost arithmetic (test/bench/cost-model.ts)', () => {
  it('sizes items as DynamoDB does: names, UTF-8 strings, numbers by significant digits, maps and lists with 3 bytes and 1 a element', () => {
    expect(numberSize('0')).toBe(2);
    expect(numberSize('12345')).toBe(4);
    expect(numberSize('-0.001200')).toBe(2);
    expect(itemSize({ pk: { S: 'P#1' }, n: { N: '27' }, ok: { BOOL: true }, z: { NULL: true } })).toBe(
      2 + 3 + 1 + 2 + 2 + 1 + 1 + 1,
    );
    expect(itemSize({ é: { S: 'é' } })).toBe(4);
    expect(itemSize({ m: { M: { a: { S: 'xy' } } } })).toBe(1 + 3 + (1 + 1 + 2));
    expect(itemSize({ l: { L: [{ N: '1' }, { S: 'ab' }] } })).toBe(1 + 3 + (1 + 2) + (1 + 2));
    expect(itemSize({ b: { B: Buffer.from('abcd').toString('base64') } })).toBe(1 + 4);
  });

  it('bills reads per 4 KB (eventual half, a missing item one unit) and a Query on the sum, rounded once', () => {
    expect(itemReadUnits(0, true)).toBe(1);
    expect(itemReadUnits(0, false)).toBe(0.5);
    expect(itemReadUnits(4096, true)).toBe(1);
    expect(itemReadUnits(4097, false)).toBe(1);
    expect(queryReadUnits(40 * 1000, false)).toBe(5);
    expect(queryReadUnits(0, true)).toBe(1);
    expect(conditionCheckUnits(300)).toBe(2);
  });

  it('bills writes per 1 KB of the larger image, doubled in a transaction, and index entries apart', () => {
    expect(itemWriteUnits(0, 0, false)).toBe(1);
    expect(itemWriteUnits(300, 1500, false)).toBe(2);
    expect(itemWriteUnits(2100, 300, true)).toBe(6);
    expect(indexWriteUnits(undefined, { key: 'a', bytes: 1500 }, true)).toBe(2);
    expect(indexWriteUnits({ key: 'a', bytes: 900 }, { key: 'b', bytes: 900 }, true)).toBe(2);
    expect(indexWriteUnits({ key: 'a', bytes: 900 }, { key: 'a', bytes: 900 }, false)).toBe(0);
    expect(indexWriteUnits(undefined, undefined, true)).toBe(0);
  });

  it('models Lambda duration, X-Ray sampling and stream polling', () => {
    expect(billedMs(2, 1)).toBe(Math.ceil(16 + 1769 / 512));
    expect(xrayTracesPerSecond(0.5)).toBe(0.5);
    expect(xrayTracesPerSecond(21)).toBeCloseTo(2);
    expect(streamInvocationsPerSecond(0.001, 1)).toBeCloseTo(0.001, 5);
    expect(streamInvocationsPerSecond(1000, 1)).toBeCloseTo(4);
  });

  it('prices an operation line by line from the dated table', () => {
    expect(PRICES_DATE).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const price of Object.values(PRICES)) expect(price.source).toMatch(/^https:\/\/aws\.amazon\.com\//);
    const usage: OpUsage = {
      ...NO_USAGE,
      apiRequests: 1,
      readUnits: 8,
      writeUnits: 4,
      handlerMs: 100,
    };
    const lines = opCost('getClient', usage, {
      streamInvocationsPerBatch: 1,
      streamWorkers: 2,
      traced: () => 0,
      edge: false,
      accessLogBytes: 0,
      platformLogBytes: PLATFORM_LOG_BYTES_PER_INVOCATION,
    });
    expect(lines.dynamodb).toBeCloseTo(8 * 0.125e-6 + 4 * 0.625e-6, 12);
    expect(lines.lambda).toBeCloseTo(0.2e-6 + 0.05 * 0.0000133334, 12);
    expect(lines.api).toBeCloseTo(1e-6, 12);
    expect(total(lines)).toBeGreaterThan(lines.dynamodb! + lines.lambda! + lines.api!);
  });

  it('judges a goal against the measured bill and the floor: met, reachable with what is left to cut, or impossible by how much', () => {
    expect(goalVerdict(1.25, 1.1, 0.9)).toMatchObject({ met: true, reachable: true, toCut: 0, overByFloor: 0 });
    const reachable = goalVerdict(1.25, 1.4, 1.0);
    expect(reachable).toMatchObject({ met: false, reachable: true, overByFloor: 0 });
    expect(reachable.toCut).toBeCloseTo(0.15, 10);
    expect(describeVerdict(reachable)).toBe('goal 1.25: not met, reachable (floor $1.00; $0.15 to cut)');
    const impossible = goalVerdict(8, 14.2, 10.5);
    expect(impossible).toMatchObject({ met: false, reachable: false });
    expect(impossible.overByFloor).toBeCloseTo(2.5, 10);
    expect(describeVerdict(impossible)).toBe('goal 8: impossible (floor $10.50, $2.50 over it)');
    // The floor at the goal is reachable (and met, when measured there too).
    expect(goalVerdict(8, 8, 8)).toMatchObject({ met: true, reachable: true });
  });

  it("drops Lambda's platform lines from the log bill when the stack writes none (JSON logs, system level WARN)", () => {
    const usage: OpUsage = {
      ...NO_USAGE,
      apiRequests: 1,
      handlerMs: 1,
      logBytes: 100,
    };
    const context = {
      streamInvocationsPerBatch: 1,
      streamWorkers: 1,
      traced: () => 0,
      edge: true,
      accessLogBytes: 200,
    };
    const withLines = opCost('getAppointments', usage, {
      ...context,
      platformLogBytes: PLATFORM_LOG_BYTES_PER_INVOCATION,
    });
    const without = opCost('getAppointments', usage, { ...context, platformLogBytes: 0 });
    expect(without.logs).toBeCloseTo((300 / 1024 ** 3) * PRICES.logsIngestedGb.usd, 15);
    expect(withLines.logs! - without.logs!).toBeCloseTo(
      (PLATFORM_LOG_BYTES_PER_INVOCATION / 1024 ** 3) * PRICES.logsIngestedGb.usd,
      15,
    );
    expect(without.xray).toBe(0);
    // The edge: CloudFront and WAF per request, a CloudFront Function's invocation only when one is attached.
    expect(without.edge).toBeCloseTo(PRICES.cloudFrontRequest.usd + PRICES.wafRequest.usd, 15);
    expect(opCost('getAppointments', usage, { ...context, platformLogBytes: 0, edgeFunctions: 1 }).edge).toBeCloseTo(
      PRICES.cloudFrontRequest.usd + PRICES.wafRequest.usd + PRICES.cloudFrontFunctionInvocation.usd,
      15,
    );
  });

  it("prices a floor stage's fixed lines: the web ACL and its rules, 2 keys, 1 secret, no alarms, no traces", () => {
    const stack: StackFacts = {
      stage: 'prod',
      pricesLabel: '',
      kmsKeys: 4,
      secrets: 3,
      alarmMetrics: 13,
      webAcls: 1,
      wafRules: 2,
      sqsMappings: 2,
      streamMappings: 2,
      filteredStreamMappings: 2,
      logRetentionMonths: 3,
      edge: true,
      cloudFrontFunctions: 0,
      tracedFunctions: ['createAppointment', 'sweepReminders'],
      workersTraced: true,
      platformLogLines: true,
      roles: 40,
    };
    const bill = (facts: StackFacts) =>
      monthlyBill({
        practices: 1,
        usages: {},
        fnOf: {},
        sweeps: [{ line: 'reminder sweep', fn: 'sweepReminders', run: NO_USAGE, everyMinutes: 1 }],
        stack: facts,
        workload: {},
      });
    const ours = bill(stack);
    const floor = bill(floorStack(stack));
    expect(floor.lines['WAF web ACL + 2 rules']).toBeCloseTo(7, 10);
    expect(floor.lines['KMS keys (2)']).toBeCloseTo(2, 10);
    expect(floor.lines['Secrets Manager secrets (1)']).toBeCloseTo(0.4, 10);
    expect(floor.lines['CloudWatch alarms (0 metrics)']).toBe(0);
    expect(ours.lines['KMS keys (4)']).toBeCloseTo(4, 10);
    // The sweep's run a minute: its trace and platform lines only where the stack has them.
    const sweepLine = 'reminder sweep (every minute: Lambda, DynamoDB, logs, trace)';
    expect(ours.lines[sweepLine]! - floor.lines[sweepLine]!).toBeCloseTo(
      43_200 *
        (PRICES.xrayTraceRecorded.usd + (PLATFORM_LOG_BYTES_PER_INVOCATION / 1024 ** 3) * PRICES.logsIngestedGb.usd),
      8,
    );
  });
});
