import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { expect } from 'vitest';
import { VigilStack } from '../../infra/vigil-stack.ts';

const root = join(import.meta.dirname, '..', '..');

export interface Resource {
  Type: string;
  Properties: Record<string, unknown>;
}

/**
 * The stack's template with the same feature flags as `cdk synth`, so it is the template the CLI
 * deploys. Bundling is skipped (no stack selected for it); synth-cli.test.ts checks the bundles.
 */
export function synthTemplate(): { template: Template; cleanup(): void } {
  const outdir = mkdtempSync(join(tmpdir(), 'vigil-cdk-'));
  const { context } = JSON.parse(readFileSync(join(root, 'cdk.json'), 'utf8')) as { context: object };
  const app = new App({ outdir, context: { ...context, 'aws:cdk:bundling-stacks': [] } });
  const template = Template.fromStack(new VigilStack(app, 'Vigil'));
  return { template, cleanup: () => rmSync(outdir, { recursive: true, force: true }) };
}

/** The only resource of `type` whose logical id starts with `prefix` ("" = any), with its id. */
export function only(template: Template, type: string, prefix = ''): [string, Resource] {
  const entries = Object.entries(template.findResources(type)).filter(([id]) => id.startsWith(prefix));
  expect(entries, `${type} ${prefix}*`).toHaveLength(1);
  const [entry] = entries;
  if (!entry) throw new Error(`no ${type} ${prefix}*`);
  return entry as [string, Resource];
}

/** The Allow statements of a function's default policy (by the function construct's id prefix). */
export function allowStatements(template: Template, prefix: string): Record<string, unknown>[] {
  const [, policy] = only(template, 'AWS::IAM::Policy', `${prefix}RoleDefaultPolicy`);
  const { Statement } = policy.Properties.PolicyDocument as { Statement: Record<string, unknown>[] };
  return Statement.filter((st) => st.Effect === 'Allow');
}

/** `{"Fn::GetAtt": [id, attr]}`: how the template refers to a resource's attribute. */
export const getAtt = (id: string, attr = 'Arn') => ({ 'Fn::GetAtt': [id, attr] });

/** The only Lambda function whose construct id starts with `prefix`, with its logical id. */
export function lambdaFunction(template: Template, prefix: string): [string, Resource] {
  return only(template, 'AWS::Lambda::Function', `${prefix}Function`);
}

/** The environment variables of that function. */
export function functionVariables(template: Template, prefix: string): Record<string, unknown> {
  const [, fn] = lambdaFunction(template, prefix);
  return (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
}

/** Actions a function's role may take on a resource (compared structurally, alone or in a statement's list). */
export function actionsOn(template: Template, prefix: string, resource: unknown): string[] {
  const same = (r: unknown) => JSON.stringify(r) === JSON.stringify(resource);
  return allowStatements(template, prefix)
    .filter((st) => same(st.Resource) || (Array.isArray(st.Resource) && st.Resource.some(same)))
    .flatMap((st) => st.Action as string | string[]);
}

/** The table, as IAM statements name it (its indexes get Query alone, by name: infra/table.ts). */
export const tableResources = (tableId: string) => getAtt(tableId);

/**
 * The function `fnId` is served on a function URL (the one of `prefix`) in RESPONSE_STREAM mode,
 * authorised by the app (AuthType NONE, with the resource policy that lets anyone invoke the URL),
 * without CORS: browsers reach it only through the console's own origin.
 */
export function expectStreamingUrl(template: Template, prefix: string, fnId: string): void {
  const [, url] = only(template, 'AWS::Lambda::Url', prefix);
  expect(url.Properties).toMatchObject({
    TargetFunctionArn: getAtt(fnId),
    InvokeMode: 'RESPONSE_STREAM',
    AuthType: 'NONE',
  });
  expect(url.Properties.Cors).toBeUndefined();
  template.hasResourceProperties('AWS::Lambda::Permission', {
    Action: 'lambda:InvokeFunctionUrl',
    FunctionName: getAtt(fnId),
    Principal: '*',
    FunctionUrlAuthType: 'NONE',
  });
}
