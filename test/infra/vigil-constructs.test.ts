import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceStack } from '../../infra/constructs/example/service-stack.ts';
import { createProviderHandler } from '../../infra/constructs/provider-handler.ts';
import type { Transport } from '../../infra/constructs/vigil-client.ts';
import { VigilProvider } from '../../infra/constructs/vigil-constructs.ts';
import { type ApiHarness, bothRuntimes, type LocalHarness } from '../support/api-harness.ts';

/**
 * The CDK construct library (infra/constructs/, docs/cdk-constructs.md): the example service
 * stack synthesized offline, and the provider's handler carrying out CloudFormation's events
 * against a real Vigil, in both runtimes.
 */

const synthApp = () => {
  const outdir = mkdtempSync(join(tmpdir(), 'vigil-constructs-'));
  // Bundling is skipped: the handler's bundle is the local esbuild's, as every Vigil function's.
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new ServiceStack(app, 'Service', { serviceUrl: 'https://api.example.com' });
  return { app, stack, cleanup: () => rmSync(outdir, { recursive: true, force: true }) };
};

describe('the example service stack, synthesized', () => {
  let template: Template;
  let cleanup: () => void;
  beforeAll(() => {
    const synthed = synthApp();
    template = Template.fromStack(synthed.stack);
    cleanup = synthed.cleanup;
  }, 120_000);
  afterAll(() => cleanup());

  const documents = (type: string) =>
    Object.values(template.findResources(type)).map(
      (r) =>
        JSON.parse((r as { Properties: { Document: string } }).Properties.Document) as Record<
          string,
          unknown
        >,
    );

  it('declares the entity, the channel and two checks as custom resources of the one provider, in document form', () => {
    expect(documents('Custom::VigilEntity')).toEqual([
      {
        blueprint: 'service',
        slug: 'api',
        name: 'API',
        fields: { tier: 'critical', owner: 'payments' },
        state_rule: null,
      },
    ]);
    expect(documents('Custom::VigilChannel')).toEqual([
      { name: 'ops-webhook', channel_type: 'webhook', config: { url: 'https://hooks.example.com/ops' } },
    ]);
    expect(documents('Custom::VigilCheck')).toEqual(
      expect.arrayContaining([
        {
          check_type: 'http',
          name: 'homepage',
          target_url: 'https://api.example.com/',
          interval_seconds: 60,
          entity: 'service/api',
        },
        {
          check_type: 'push',
          name: 'heartbeat',
          interval_seconds: 300,
          failure_threshold: 1,
          entity: 'service/api',
        },
      ]),
    );
    const tokens = new Set(
      ['Custom::VigilEntity', 'Custom::VigilChannel', 'Custom::VigilCheck'].flatMap((type) =>
        Object.values(template.findResources(type)).map((r) => JSON.stringify(r.Properties.ServiceToken)),
      ),
    );
    expect(tokens.size).toBe(1);
    expect([...tokens][0]).toContain('VigilProviderframeworkonEvent');
  });

  it('creates each check after its entity (and deletes it first)', () => {
    const [entityId] = Object.keys(template.findResources('Custom::VigilEntity'));
    for (const check of Object.values(template.findResources('Custom::VigilCheck')))
      expect(check.DependsOn).toContain(entityId);
  });

  it('runs one handler, given the URL and the parameter name, allowed to read that parameter and nothing else', () => {
    const handlers = template.findResources('AWS::Lambda::Function', {
      Properties: { Environment: { Variables: { VIGIL_URL: 'https://vigil.example.com' } } },
    });
    expect(Object.keys(handlers)).toHaveLength(1);
    const [handler] = Object.values(handlers);
    expect(handler?.Properties.Environment.Variables).toMatchObject({
      VIGIL_KEY_PARAMETER: '/vigil/api-key',
    });
    expect(handler?.Properties.Timeout).toBe(120);
    const policies = Object.entries(template.findResources('AWS::IAM::Policy')).filter(([id]) =>
      id.startsWith('VigilHandlerRole'),
    );
    const statements = policies.flatMap(
      ([, p]) =>
        (p.Properties.PolicyDocument as { Statement: { Action: string | string[]; Resource: unknown }[] })
          .Statement,
    );
    const reads = statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('ssm:')));
    expect(reads).toHaveLength(1);
    expect(reads[0]?.Action).toBe('ssm:GetParameter');
    expect(JSON.stringify(reads[0]?.Resource)).toContain(':parameter/vigil/api-key');
    // Besides the parameter, the role may only write its own logs.
    const others = statements.flatMap((s) => [s.Action].flat()).filter((a) => !a.startsWith('ssm:'));
    expect(others.every((a) => a.startsWith('logs:'))).toBe(true);
  });

  it('passes cdk-nag AwsSolutions with the provider framework findings acknowledged', () => {
    const { app, cleanup: done } = synthApp();
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    try {
      const error = (() => {
        try {
          app.synth();
        } catch (e) {
          return String(e);
        }
        return undefined;
      })();
      expect(error).toBeUndefined();
    } finally {
      done();
    }
  });

  it('refuses a second provider in a stack', () => {
    const { stack, cleanup: done } = synthApp();
    try {
      expect(
        () => new VigilProvider(stack, 'Again', { url: 'https://x.example', apiKey: { secretName: 'k' } }),
      ).toThrow(/one VigilProvider/);
    } finally {
      done();
    }
  });
});

/** A transport onto the Lambda harness: the API Lambda answers as behind API Gateway. */
const harnessTransport =
  (h: ApiHarness): Transport =>
  async (url, init) => {
    const { pathname, search } = new URL(url);
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const answer = await h.request(init.method ?? 'GET', `${pathname}${search}`, {
      headers,
      ...(typeof init.body === 'string' ? { rawBody: init.body } : {}),
    });
    return new Response(answer.status === 204 ? null : answer.text, {
      status: answer.status,
      headers: answer.headers,
    });
  };

let requestNo = 0;
function event(
  type: 'Create' | 'Update' | 'Delete',
  kind: string,
  doc: unknown,
  extra: { physicalId?: string; old?: unknown } = {},
): CloudFormationCustomResourceEvent {
  requestNo += 1;
  const base = {
    ServiceToken: 'arn:aws:lambda:eu-west-1:123456789012:function:framework-onEvent',
    ResponseURL: 'https://cloudformation-custom-resource-response.example/',
    StackId: 'arn:aws:cloudformation:eu-west-1:123456789012:stack/Service/1',
    RequestId: `request-${requestNo}`,
    LogicalResourceId: 'Resource',
    ResourceType: `Custom::Vigil${kind}`,
    ResourceProperties: { ServiceToken: 'token', Kind: kind, Document: JSON.stringify(doc) },
  };
  if (type === 'Create') return { ...base, RequestType: 'Create' };
  if (type === 'Delete')
    return { ...base, RequestType: 'Delete', PhysicalResourceId: extra.physicalId ?? '' };
  return {
    ...base,
    RequestType: 'Update',
    PhysicalResourceId: extra.physicalId ?? '',
    OldResourceProperties: { ServiceToken: 'token', Kind: kind, Document: JSON.stringify(extra.old) },
  };
}

describe.each(bothRuntimes)('the provider handler against Vigil ($runtime)', ({ start }) => {
  let h: ApiHarness;
  let handle: ReturnType<typeof createProviderHandler>;
  const sleeps: number[] = [];
  const get = (path: string) => h.request('GET', path, { key: h.adminKey });
  const entity = {
    blueprint: 'service',
    slug: 'api',
    name: 'API',
    fields: { tier: 'critical' },
    state_rule: null,
  };
  const homepage = {
    entity: 'service/api',
    check_type: 'http',
    name: 'homepage',
    target_url: 'http://127.0.0.1:9/',
    interval_seconds: 60,
    enabled: false,
  };

  beforeAll(async () => {
    h = await start({ scheduler: false, env: { VIGIL_EGRESS_ALLOW: '127.0.0.1/32' } });
    const local = h.runtime === 'local' ? (h as LocalHarness).local : undefined;
    handle = createProviderHandler({
      // The local runtime over real HTTP on 127.0.0.1; the cloud through the API Lambda.
      url: local ? local.url : 'https://vigil.example.com',
      readKey: async () => h.adminKey,
      ...(local ? {} : { transport: harnessTransport(h) }),
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    const made = await h.request('POST', '/v1/blueprints', {
      key: h.adminKey,
      body: {
        slug: 'service',
        name: 'Service',
        fields: [
          { name: 'tier', field_type: 'string' },
          { name: 'owner', field_type: 'string' },
        ],
      },
    });
    expect(made.status).toBe(201);
  }, 120_000);
  afterAll(() => h?.close());

  it('creates, updates and deletes an entity addressed by its reference', async () => {
    const created = await handle(event('Create', 'entity', entity));
    expect(created.PhysicalResourceId).toBe('service/api');
    expect((await get('/v1/blueprints/service/entities/api')).body).toMatchObject({
      name: 'API',
      fields: { tier: 'critical' },
    });

    const changed = { ...entity, name: 'Public API', fields: { owner: 'payments' } };
    const updated = await handle(
      event('Update', 'entity', changed, { physicalId: 'service/api', old: entity }),
    );
    expect(updated.PhysicalResourceId).toBe('service/api');
    const read = (await get('/v1/blueprints/service/entities/api')).body;
    // A merge patch: the field the document dropped is removed, not kept.
    expect(read).toMatchObject({ name: 'Public API', fields: { owner: 'payments' } });
    expect(read.fields.tier).toBeUndefined();
    await handle(event('Update', 'entity', entity, { physicalId: 'service/api', old: changed }));
  });

  it('creates a check on the entity named by reference, updates it in place, replaces it when its name changes', async () => {
    const created = await handle(event('Create', 'check', homepage));
    const id = created.PhysicalResourceId;
    expect(id).toMatch(/^chk_/);
    const entityId = (await get('/v1/blueprints/service/entities/api')).body.id;
    expect((await get(`/v1/checks/${id}`)).body).toMatchObject({
      entity_id: entityId,
      name: 'homepage',
      interval_seconds: 60,
    });

    const slower = { ...homepage, interval_seconds: 120 };
    const updated = await handle(event('Update', 'check', slower, { physicalId: id, old: homepage }));
    expect(updated.PhysicalResourceId).toBe(id);
    expect((await get(`/v1/checks/${id}`)).body.interval_seconds).toBe(120);

    const renamed = { ...slower, name: 'front-page' };
    const replaced = await handle(event('Update', 'check', renamed, { physicalId: id, old: slower }));
    expect(replaced.PhysicalResourceId).toMatch(/^chk_/);
    expect(replaced.PhysicalResourceId).not.toBe(id);
    expect((await get(`/v1/checks/${replaced.PhysicalResourceId}`)).body.name).toBe('front-page');
    // CloudFormation then deletes the old physical resource.
    await handle(event('Delete', 'check', slower, { physicalId: id }));
    expect((await get(`/v1/checks/${id}`)).status).toBe(404);

    await handle(event('Delete', 'check', renamed, { physicalId: replaced.PhysicalResourceId }));
    expect((await get(`/v1/checks/${replaced.PhysicalResourceId}`)).status).toBe(404);
    // Deleting it again (a retried stack delete, or one removed by hand) counts as done.
    await expect(
      handle(event('Delete', 'check', renamed, { physicalId: replaced.PhysicalResourceId })),
    ).resolves.toMatchObject({ PhysicalResourceId: replaced.PhysicalResourceId });
  });

  it('creates, updates and deletes a shared channel; its secret is never read back', async () => {
    const channel = {
      name: 'ops-signed',
      channel_type: 'webhook',
      config: { url: 'http://127.0.0.1:9/hook', secret: 'secret-one' },
    };
    const created = await handle(event('Create', 'channel', channel));
    const id = created.PhysicalResourceId;
    expect(id).toMatch(/^chn_/);
    const read = await get(`/v1/notify/channels/${id}`);
    expect(read.body).toMatchObject({ name: 'ops-signed', channel_type: 'webhook' });
    expect(read.text).not.toContain('secret-one');

    const moved = { ...channel, config: { url: 'http://127.0.0.1:9/hook', secret: 'secret-two' } };
    expect(
      (await handle(event('Update', 'channel', moved, { physicalId: id, old: channel }))).PhysicalResourceId,
    ).toBe(id);
    await handle(event('Delete', 'channel', moved, { physicalId: id }));
    expect((await get(`/v1/notify/channels/${id}`)).status).toBe(404);
  });

  it('fails a create with the API’s reason, which holds no key', async () => {
    const orphan = { ...homepage, entity: 'service/missing' };
    const missing = await handle(event('Create', 'check', orphan)).catch((e: Error) => e);
    expect(missing).toBeInstanceOf(Error);
    expect((missing as Error).message).toMatch(
      /GET \/v1\/blueprints\/service\/entities\/missing answered 404/,
    );

    const invalid = await handle(event('Create', 'check', { ...homepage, interval_seconds: 0 })).catch(
      (e: Error) => e,
    );
    expect((invalid as Error).message).toMatch(/POST \/v1\/checks answered 400: .*interval_seconds/);
    for (const error of [missing, invalid])
      expect(String((error as Error).message)).not.toContain(h.adminKey);
    // The rollback's Delete of a resource whose create failed has nothing to delete, and succeeds.
    await expect(
      handle(event('Delete', 'check', orphan, { physicalId: 'request-1' })),
    ).resolves.toBeDefined();
  });

  it('retries a 429 after its Retry-After and a 503, then succeeds', async () => {
    const statuses = [429, 503];
    const base = harnessTransport(h);
    const local = h.runtime === 'local' ? (h as LocalHarness).local : undefined;
    const flaky = createProviderHandler({
      url: local ? local.url : 'https://vigil.example.com',
      readKey: async () => h.adminKey,
      transport: async (url, init) => {
        const status = statuses.shift();
        if (status === 429)
          return new Response('{"error":"slow down"}', { status, headers: { 'retry-after': '2' } });
        if (status) return new Response('', { status });
        return local ? fetch(url, init) : base(url, init);
      },
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    sleeps.length = 0;
    const made = await flaky(
      event('Create', 'channel', {
        name: 'retried',
        channel_type: 'webhook',
        config: { url: 'http://127.0.0.1:9/hook' },
      }),
    );
    expect(made.PhysicalResourceId).toMatch(/^chn_/);
    expect(sleeps[0]).toBe(2000);
    expect(sleeps).toHaveLength(2);
    expect(statuses).toHaveLength(0);
  });
});
