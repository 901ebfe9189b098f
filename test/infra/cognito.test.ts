import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, describe, expect, it } from 'vitest';
import { type VigilSettings, VigilStack } from '../../infra/vigil-stack.ts';
import { cdkApp, nagFindings } from './synth.ts';

/**
 * The optional Cognito user pool (`-c vigil:cognito=true`, infra/cognito.ts): absent by default;
 * with the flag a pool without self sign-up and a confidential code-grant client whose callback is
 * the console's /v1/sso/callback, passing cdk-nag's AwsSolutions pack like the rest of the stack.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The stack's template with these settings, and cdk-nag's findings (the same feature flags as `cdk synth`). */
function synth(settings: VigilSettings): { template: Template; findings: string[] } {
  const outdir = mkdtempSync(join(tmpdir(), 'vigil-cognito-'));
  dirs.push(outdir);
  const app = cdkApp(outdir);
  const stack = new VigilStack(app, 'Vigil', { settings });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  const template = Template.fromStack(stack);
  return { template, findings: nagFindings(outdir) };
}

describe('the Cognito user pool of -c vigil:cognito', () => {
  it('is not in the stack without the flag', () => {
    const { template } = synth({});
    expect(Object.keys(template.findResources('AWS::Cognito::UserPool'))).toEqual([]);
  }, 120_000);

  it('adds a pool and a confidential code-grant client for the console callback, with no cdk-nag finding', () => {
    const { template, findings } = synth({ cognito: 'true', publicUrl: 'https://vigil.example.com/' });
    const pools = Object.values(template.findResources('AWS::Cognito::UserPool'));
    expect(pools).toHaveLength(1);
    expect(pools[0]?.Properties).toMatchObject({
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      AutoVerifiedAttributes: ['email'],
      MfaConfiguration: 'ON',
    });
    const clients = Object.values(template.findResources('AWS::Cognito::UserPoolClient'));
    expect(clients).toHaveLength(1);
    const client = clients[0]?.Properties as Record<string, unknown>;
    expect(client).toMatchObject({
      GenerateSecret: true,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      SupportedIdentityProviders: ['COGNITO'],
    });
    expect([...(client.AllowedOAuthScopes as string[])].sort()).toEqual(['email', 'openid', 'profile']);
    const callbacks = JSON.stringify(client.CallbackURLs);
    expect(callbacks).toContain('/v1/sso/callback');
    expect(callbacks).toContain('https://vigil.example.com/v1/sso/callback');
    expect(callbacks).not.toContain('//v1');
    expect(Object.keys(template.findOutputs('*')).filter((o) => o.startsWith('Cognito'))).toHaveLength(2);
    expect(findings.filter((f) => f.includes('Cognito'))).toEqual([]);
  }, 120_000);
});
