import { type App, CfnOutput, Duration, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import {
  ContextAttribute,
  Schedule,
  ScheduleExpression,
  ScheduleTargetInput,
  TimeWindow,
} from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import { type CfnSecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { REGION_BROWSER_RUNS } from '../lib/agent/region-browser.ts';
import { BROWSER_FUNCTION_MEMORY_MB } from '../lib/cloud/browser-function.ts';
import { BROWSER_CHILD, BROWSER_TIMEOUT } from './browser.ts';
import { VigilFunction } from './node-function.ts';

/**
 * A probe stack per AWS region (`-c vigil:probeRegions=eu-west-1,ap-southeast-2`, docs/locations.md
 * "AWS regions"): the location `<region>` of kind `aws_region` runs there. EventBridge Scheduler
 * invokes the probe function every minute; each invocation runs the agent protocol against the
 * home deployment's API for about 50 s (lib/agent/region-function.ts) with the location key the
 * operator puts in the stack's secret. Reserved concurrency 1: one run at a time, one per minute.
 *
 * The home API's URL is a deploy setting (`vigil:homeApiUrl`), not a cross-region reference: a
 * reference needs both stacks' regions and account at synth time, so `cdk synth` would no longer
 * work offline and environment-agnostic; and the operator may front the API with a domain of
 * their own. The home stack's `ApiUrl` output (or that domain) is the value.
 */

/** The function's timeout: a 50 s run, plus the longest probe leased at its end (60 s), plus room. */
const PROBE_FUNCTION_TIMEOUT = Duration.minutes(2);

export interface ProbeRegionStackProps extends StackProps {
  /** The home deployment's API base URL (https), e.g. its `ApiUrl` output. */
  readonly homeApiUrl: string;
}

export class VigilProbeRegionStack extends Stack {
  readonly secret: Secret;
  readonly handler: NodejsFunction;
  readonly browser: NodejsFunction;
  readonly schedule: Schedule;

  constructor(scope: Construct, id: string, props: ProbeRegionStackProps) {
    super(scope, id, props);
    // Created empty (no generated value): the operator puts the location key in it.
    this.secret = new Secret(this, 'LocationKey', {
      description: `Vigil: the location key of this region's probe location (vlk_…), from POST /v1/locations`,
    });
    (this.secret.node.defaultChild as CfnSecret).addPropertyDeletionOverride('GenerateSecretString');
    Validations.of(this.secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'A location key is issued by Vigil (POST /v1/locations/{id}/keys), not by a Secrets Manager rotation function: it is rotated there and put here (docs/locations.md "AWS regions").',
    });

    // Browser legs leased here run in a function of their own (lib/agent/region-browser.ts):
    // the home's Chromium bundle and runner, invoked by the probe function alone and given nothing.
    this.browser = new VigilFunction(this, 'Browser', {
      entry: 'functions/region-browser.ts',
      memorySize: BROWSER_FUNCTION_MEMORY_MB,
      timeout: BROWSER_TIMEOUT,
      architecture: Architecture.X86_64,
      reservedConcurrency: REGION_BROWSER_RUNS,
      beside: BROWSER_CHILD,
    }).function;

    this.handler = new VigilFunction(this, 'Probe', {
      entry: 'functions/probe-region.ts',
      timeout: PROBE_FUNCTION_TIMEOUT,
      reservedConcurrency: 1,
      environment: {
        VIGIL_AGENT_URL: props.homeApiUrl,
        VIGIL_LOCATION_KEY_SECRET: this.secret.secretArn,
        VIGIL_REGION_BROWSER_FUNCTION: this.browser.functionName,
      },
    }).function;
    this.secret.grantRead(this.handler);
    // The function itself, not its versions or aliases (grantInvoke would add `<arn>:*`).
    this.handler.addToRolePolicy(
      new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.browser.functionArn] }),
    );
    // A failed or late run is not repeated: the next minute's run leases what is left.
    this.handler.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: Duration.minutes(1) });

    const schedulerRole = new Role(this, 'SchedulerRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com'),
    });
    schedulerRole.addToPolicy(
      new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.handler.functionArn] }),
    );
    this.schedule = new Schedule(this, 'ProbeSchedule', {
      description: `Vigil: runs the ${this.region} probe location's agent every minute`,
      schedule: ScheduleExpression.rate(Duration.minutes(1)),
      timeWindow: TimeWindow.off(),
      target: new LambdaInvoke(this.handler, {
        input: ScheduleTargetInput.fromObject({
          scheduled_time: ContextAttribute.scheduledTime,
          execution_id: ContextAttribute.executionId,
        }),
        retryAttempts: 0,
        maxEventAge: Duration.minutes(1),
        role: schedulerRole.withoutPolicyUpdates(),
      }),
    });

    new CfnOutput(this, 'LocationKeySecretArn', {
      value: this.secret.secretArn,
      description: `Put the location key here: aws secretsmanager put-secret-value --region ${this.region} --secret-id <this ARN> --secret-string vlk_…`,
    });
  }
}

/** AWS region names: `eu-west-1`, `ap-southeast-2`, `us-gov-west-1`. */
const REGION = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/;

/**
 * The probe stacks of `vigil:probeRegions` (comma-separated region names), one per region, named
 * `VigilProbe-<region>`; none when unset. Throws a readable error for a bad region or a missing
 * or non-https `vigil:homeApiUrl`.
 */
export function addProbeRegionStacks(
  app: App,
  settings: { probeRegions?: string; homeApiUrl?: string; account?: string },
): VigilProbeRegionStack[] {
  const regions = (settings.probeRegions ?? '')
    .split(',')
    .map((r) => r.trim())
    .filter((r) => r !== '');
  if (regions.length === 0) return [];
  const problems: string[] = [];
  for (const region of regions)
    if (!REGION.test(region)) problems.push(`vigil:probeRegions: ${region} is not an AWS region name`);
  if (new Set(regions).size !== regions.length) problems.push('vigil:probeRegions: a region is named twice');
  const homeApiUrl = settings.homeApiUrl;
  if (!homeApiUrl)
    problems.push(
      "vigil:homeApiUrl: required with vigil:probeRegions, the home API's URL (the Vigil stack's ApiUrl output)",
    );
  else if (!/^https:\/\/[^/\s?#]+(\/[^\s?#]*)?$/.test(homeApiUrl))
    problems.push(`vigil:homeApiUrl: ${homeApiUrl} is not an https URL`);
  if (problems.length > 0 || !homeApiUrl)
    throw new Error(`invalid deployment settings:\n  ${problems.join('\n  ')}`);
  return regions.map(
    (region) =>
      new VigilProbeRegionStack(app, `VigilProbe-${region}`, {
        description: `Vigil: the ${region} probe location (an agent run every minute against the home API)`,
        env: { account: settings.account, region },
        homeApiUrl,
      }),
  );
}
