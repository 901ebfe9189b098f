import { App } from 'aws-cdk-lib';
import { addProbeRegionStacks } from './probe-region.ts';
import { VigilStack } from './vigil-stack.ts';

// The CDK CLI entry point (cdk.json "app"). No lookups: synth works offline and without credentials.
const app = new App();

/** A deployment setting from `cdk deploy -c vigil:<name>=<value>` (or cdk.context.json). */
const setting = (name: string): string | undefined => {
  const value: unknown = app.node.tryGetContext(`vigil:${name}`);
  // cdk.json and cdk.context.json may hold a number where `-c` gives a string.
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value !== '' ? value : undefined;
};

new VigilStack(app, 'Vigil', {
  description: 'Vigil: service catalog, health checks and alerting (cloud runtime)',
  // Set by the CLI when it finds credentials; unset, the stack stays environment-agnostic.
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  settings: {
    natsUrl: setting('natsUrl'),
    natsPrefix: setting('natsPrefix'),
    publicUrl: setting('publicUrl'),
    allowedHosts: setting('allowedHosts'),
    egressAllow: setting('egressAllow'),
    emailFrom: setting('emailFrom'),
    apiRateLimit: setting('apiRateLimit'),
    apiBurstLimit: setting('apiBurstLimit'),
    alarmEmail: setting('alarmEmail'),
    waf: setting('waf'),
    wafRateLimit: setting('wafRateLimit'),
    wafAclArn: setting('wafAclArn'),
    cognito: setting('cognito'),
    pageDomains: setting('pageDomains'),
    pageDomainsCertificateArn: setting('pageDomainsCertificateArn'),
  },
  capacity: {
    expectedChecks: setting('expectedChecks'),
    expectedCells: setting('expectedCells'),
    dueShards: setting('dueShards'),
    accountConcurrency: setting('accountConcurrency'),
  },
});

// One probe stack per AWS region of `-c vigil:probeRegions=eu-west-1,ap-southeast-2` (docs/locations.md "AWS regions").
addProbeRegionStacks(app, {
  probeRegions: setting('probeRegions'),
  homeApiUrl: setting('homeApiUrl'),
  account: process.env.CDK_DEFAULT_ACCOUNT,
});
