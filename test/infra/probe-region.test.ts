import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addProbeRegionStacks, type VigilProbeRegionStack } from '../../infra/probe-region.ts';
import { REGION_BROWSER_RUNS } from '../../lib/agent/region-browser.ts';
import { BROWSER_FUNCTION_MEMORY_MB } from '../../lib/cloud/browser-function.ts';
import { cdkApp, getAtt, nagFindings, only, type Resource } from './synth.ts';

/**
 * The AWS region probe stacks (`-c vigil:probeRegions=…`, infra/probe-region.ts): synthesized
 * with cdk.json's feature flags and cdk-nag's AwsSolutions pack, as test/infra/nag.test.ts runs it
 * on the home stack; and infra/app.ts itself, run as the CDK CLI runs it, with and without the flag.
 */

const root = join(import.meta.dirname, '..', '..');
const HOME = 'https://abc123.execute-api.us-east-1.amazonaws.com';
const { context } = JSON.parse(readFileSync(join(root, 'cdk.json'), 'utf8')) as { context: object };
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-probe-region-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

let app: App;
let stacks: VigilProbeRegionStack[];
let synthError: unknown;

beforeAll(() => {
  app = cdkApp(tempDir());
  stacks = addProbeRegionStacks(app, { probeRegions: 'eu-west-1, ap-southeast-2', homeApiUrl: HOME });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  try {
    app.synth();
  } catch (e) {
    synthError = e;
  }
}, 120_000);

const template = (region: string) => {
  const stack = stacks.find((s) => s.region === region);
  if (!stack) throw new Error(`no stack for ${region}`);
  return Template.fromStack(stack);
};

describe('the AWS region probe stacks', () => {
  it('makes one stack per region, each in its region', () => {
    expect(stacks.map((s) => [s.stackName, s.region])).toEqual([
      ['VigilProbe-eu-west-1', 'eu-west-1'],
      ['VigilProbe-ap-southeast-2', 'ap-southeast-2'],
    ]);
  });

  it('runs the probe function every minute through EventBridge Scheduler, one run at a time', () => {
    const t = template('eu-west-1');
    const [fnId, fn] = only(t, 'AWS::Lambda::Function', 'Probe');
    const [, schedule] = only(t, 'AWS::Scheduler::Schedule');

    expect(schedule.Properties.ScheduleExpression).toBe('rate(1 minute)');
    expect(schedule.Properties.FlexibleTimeWindow).toEqual({ Mode: 'OFF' });
    expect((schedule.Properties.Target as { Arn: unknown }).Arn).toEqual(getAtt(fnId));
    expect(fn.Properties.ReservedConcurrentExecutions).toBe(1);
    // A 50 s run, plus the longest probe leased at its end.
    expect(fn.Properties.Timeout).toBe(120);
    const [, invokeConfig] = only(t, 'AWS::Lambda::EventInvokeConfig');
    expect(invokeConfig.Properties).toMatchObject({ MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 60 });
  });

  it('creates the location key secret empty, and lets the function read it and nothing else', () => {
    const t = template('ap-southeast-2');
    const [secretId, secret] = only(t, 'AWS::SecretsManager::Secret');
    const [, fn] = only(t, 'AWS::Lambda::Function', 'Probe');
    const [, policy] = only(t, 'AWS::IAM::Policy', 'ProbeRole');

    expect(secret.Properties.GenerateSecretString).toBeUndefined();
    expect(secret.Properties.SecretString).toBeUndefined();
    const [browserId] = only(t, 'AWS::Lambda::Function', 'Browser');
    expect((fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables).toEqual({
      VIGIL_LOG_LEVEL: 'info',
      NODE_OPTIONS: '--enable-source-maps',
      VIGIL_AGENT_URL: HOME,
      VIGIL_LOCATION_KEY_SECRET: { Ref: secretId },
      VIGIL_REGION_BROWSER_FUNCTION: { Ref: browserId },
    });
    const statements = (policy.Properties.PolicyDocument as { Statement: Resource['Properties'][] })
      .Statement;
    // Its own log group (infra/node-function.ts), the secret, and invoking its region's browser function.
    expect(statements.map((st) => st.Action)).toEqual([
      ['logs:CreateLogStream', 'logs:PutLogEvents'],
      ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue'],
      'lambda:InvokeFunction',
    ]);
    expect(statements[1]).toEqual({
      Effect: 'Allow',
      Action: ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue'],
      Resource: { Ref: secretId },
    });
    expect(t.toJSON().Outputs.LocationKeySecretArn.Value).toEqual({ Ref: secretId });
  });

  it('runs browser legs in a browser function of its own: x86_64, 2 GB, a concurrency cap, invoked by the probe function alone and given nothing', () => {
    const t = template('eu-west-1');
    const [browserId, browser] = only(t, 'AWS::Lambda::Function', 'Browser');
    const [, probePolicy] = only(t, 'AWS::IAM::Policy', 'ProbeRole');
    const statements = (policy: Resource) =>
      (policy.Properties.PolicyDocument as { Statement: Resource['Properties'][] }).Statement;

    expect(browser.Properties).toMatchObject({
      Architectures: ['x86_64'],
      MemorySize: BROWSER_FUNCTION_MEMORY_MB,
      Timeout: 120,
      ReservedConcurrentExecutions: REGION_BROWSER_RUNS,
    });
    expect((browser.Properties.Environment as { Variables: Record<string, unknown> }).Variables).toEqual({
      VIGIL_LOG_LEVEL: 'info',
      NODE_OPTIONS: '--enable-source-maps',
    });
    // The grant is exactly InvokeFunction on that function (not its versions or aliases, nothing else).
    expect(statements(probePolicy).filter((st) => JSON.stringify(st.Action).includes('lambda:'))).toEqual([
      { Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: getAtt(browserId) },
    ]);
    // The browser function's role writes its log group and nothing else: no table, queue, secret or bucket.
    const [, browserPolicy] = only(t, 'AWS::IAM::Policy', 'BrowserRole');
    expect(statements(browserPolicy).map((st) => st.Action)).toEqual([
      ['logs:CreateLogStream', 'logs:PutLogEvents'],
    ]);
    // Nothing else in the stack invokes it: no event source, no schedule.
    expect(Object.keys(t.findResources('AWS::Lambda::EventSourceMapping'))).toEqual([]);
  });

  it('passes cdk-nag AwsSolutions, the secret rotation acknowledged with its reason', () => {
    expect(nagFindings(app.outdir)).toEqual([]);
    expect(synthError).toBeUndefined();
  });

  it('refuses a bad region, a missing home URL or an http one, in words', () => {
    const fresh = () => new App({ outdir: tempDir() });
    expect(() => addProbeRegionStacks(fresh(), { probeRegions: 'eu-west-1' })).toThrow(
      /vigil:homeApiUrl: required with vigil:probeRegions/,
    );
    expect(() =>
      addProbeRegionStacks(fresh(), { probeRegions: 'eu-west-1', homeApiUrl: 'http://vigil.example.com' }),
    ).toThrow(/is not an https URL/);
    expect(() => addProbeRegionStacks(fresh(), { probeRegions: 'Europe', homeApiUrl: HOME })).toThrow(
      /Europe is not an AWS region name/,
    );
    expect(addProbeRegionStacks(fresh(), { homeApiUrl: HOME })).toEqual([]);
  });
});

describe('infra/app.ts with and without -c vigil:probeRegions', () => {
  /** The stacks infra/app.ts synthesizes with this context, as the CDK CLI runs it (no bundling). */
  const stacksOfApp = (extra: Record<string, string>): string[] => {
    const outdir = tempDir();
    const run = spawnSync(join(root, 'node_modules', '.bin', 'tsx'), ['infra/app.ts'], {
      cwd: root,
      env: {
        ...process.env,
        CDK_OUTDIR: outdir,
        CDK_CONTEXT_JSON: JSON.stringify({ ...context, 'aws:cdk:bundling-stacks': [], ...extra }),
      },
      encoding: 'utf8',
      timeout: 240_000, // a bound for a hang: two runs of ~18 s each when quiet, minutes under load
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const manifest = JSON.parse(readFileSync(join(outdir, 'manifest.json'), 'utf8')) as {
      artifacts: Record<string, { type: string }>;
    };
    return Object.entries(manifest.artifacts)
      .filter(([, a]) => a.type === 'aws:cloudformation:stack')
      .map(([id]) => id)
      .sort();
  };

  it('synthesizes the home stack alone without the flag, and a probe stack per region with it', () => {
    expect(stacksOfApp({})).toEqual(['Vigil']);
    expect(
      stacksOfApp({ 'vigil:probeRegions': 'eu-west-1,ap-southeast-2', 'vigil:homeApiUrl': HOME }),
    ).toEqual(['Vigil', 'VigilProbe-ap-southeast-2', 'VigilProbe-eu-west-1']);
  }, 500_000);
});

// The probe function's bundle, as the CLI writes it with -c vigil:probeRegions, is tested by
// test/infra/synth-cli.test.ts in the same CLI run as the home stack's functions.
