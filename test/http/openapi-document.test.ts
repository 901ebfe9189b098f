import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../lib/app.ts';
import { buildOpenApiDocument } from '../../lib/http/openapi.ts';
import type { Route } from '../../lib/http/types.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/sqlite/sqlite-table.ts';
import { queuelessApp } from '../support/queueless-app.ts';

/** The `{param}` names of a path template. */
const pathParams = (path: string) => [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);

/** What is missing from a route's declared schemas; empty when it declares everything it reads. */
function missingSchemas(route: Route): string[] {
  const missing: string[] = [];
  const { schemas } = route;
  if (!schemas) return ['schemas'];
  const declared = Object.keys(schemas.params?.shape ?? {}).sort();
  if (JSON.stringify(declared) !== JSON.stringify(pathParams(route.path).sort()))
    missing.push(`params (declared ${declared.join(',') || 'none'})`);
  const writes = route.method !== 'GET' && route.method !== 'DELETE';
  if (writes && !schemas.body && route.body !== 'raw') missing.push('body');
  if (!writes && schemas.body) missing.push(`no body on ${route.method}`);
  const statuses = Object.keys(schemas.responses ?? {});
  if (!statuses.some((s) => s.startsWith('2') || s === '302')) missing.push('a success response');
  if (!route.operationId) missing.push('operationId');
  if (!route.tag) missing.push('tag');
  return missing;
}

describe('the OpenAPI document', () => {
  let table: SqliteTable;
  let app: App;
  // biome-ignore lint/suspicious/noExplicitAny: the generated document is inspected freely
  let doc: Record<string, any>;

  beforeAll(() => {
    table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    app = queuelessApp(table);
    doc = buildOpenApiDocument(app.routes);
  });
  afterAll(() => {
    table.db.close();
  });

  it('finds every route of the table declaring its params, body, responses, operationId and tag', () => {
    const failures = app.routes
      .map((route) => [`${route.method} ${route.path}`, missingSchemas(route).join('; ')])
      .filter(([, missing]) => missing !== '');
    expect(failures).toEqual([]);
    expect(app.routes.length).toBeGreaterThanOrEqual(30);
  });

  it('tells a route without schemas apart (so the check above can fail)', () => {
    const bare = { ...app.routes.find((r) => r.path === '/v1/checks/{id}' && r.method === 'PUT') };
    expect(missingSchemas({ ...bare, schemas: undefined } as unknown as Route)).toEqual(['schemas']);
    expect(missingSchemas({ ...bare, schemas: { responses: {} } } as unknown as Route)).toEqual([
      'params (declared none)',
      'body',
      'a success response',
    ]);
  });

  it('lists every route of the table once, with its parameters, body and responses', () => {
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item as object));
    expect(operations).toHaveLength(app.routes.length);
    const ids = operations.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const route of app.routes) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      const name = `${route.method} ${route.path}`;
      expect(op?.operationId, name).toBe(route.operationId);
      expect(op.tags, name).toEqual([route.tag]);
      const params = (op.parameters ?? []).map((p: { in: string; name: string }) => `${p.in}:${p.name}`);
      const expected = [
        ...Object.keys(route.schemas.params?.shape ?? {}).map((n) => `path:${n}`),
        ...Object.keys(route.schemas.query?.shape ?? {}).map((n) => `query:${n}`),
        ...Object.keys(route.schemas.headers?.shape ?? {}).map((n) => `header:${n}`),
      ];
      expect(params, name).toEqual(expected);
      expect(op.requestBody !== undefined, name).toBe(
        route.schemas.body !== undefined || route.body === 'raw',
      );
      for (const status of Object.keys(route.schemas.responses))
        expect(op.responses[status], name).toBeDefined();
      expect(op.responses['500'], name).toBeDefined();
      const secured = route.auth === 'key' || route.schemas.checksKey === true;
      const scheme = route.auth === 'location' ? [{ locationKey: [] }] : secured ? [{ bearerAuth: [] }] : [];
      expect(op.security, name).toEqual(scheme);
    }
  });

  it('documents error answers by what the route does', () => {
    const op = (method: string, path: string) => doc.paths[path][method];
    expect(Object.keys(op('get', '/healthz').responses)).toEqual(['200', '500']);
    expect(Object.keys(op('delete', '/v1/settings/users/{id}').responses)).toEqual([
      '204',
      '401',
      '403',
      '404',
      '409',
      '429',
      '500',
    ]);
    expect(op('delete', '/v1/settings/users/{id}').responses['403'].description).toBe(
      'ACCOUNT_DISABLED, READ_ONLY, FORBIDDEN',
    );
    expect(Object.keys(op('post', '/v1/blueprints').responses)).toContain('413');
    expect(doc.components.schemas.Error.required).toEqual(['error', 'code']);
  });

  it('states the rules the server enforces: integer bounds, tagged unions, formats, patterns, servers', () => {
    const query = (path: string, name: string) =>
      doc.paths[path].get.parameters.find((p: { name: string }) => p.name === name).schema;
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    expect(query('/v1/checks/{id}/results', 'limit')).toEqual({ type: 'integer', minimum: 1, maximum: 500 });
    expect(query('/v1/checks/{id}/sparkline', 'hours')).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 720,
    });
    expect(query('/v1/checks/{id}/sparkline', 'buckets')).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 500,
    });
    expect(query('/v1/status', 'limit')).toEqual({ type: 'integer', minimum: 1, maximum: 1000 });
    const body = (method: string, path: string) =>
      doc.paths[path][method].requestBody.content['application/json'].schema;
    const checkBody = body('post', '/v1/checks');
    expect(checkBody.discriminator).toEqual({ propertyName: 'check_type' });
    expect(
      checkBody.oneOf.map(
        (o: { properties: { check_type: { const: string } } }) => o.properties.check_type.const,
      ),
    ).toEqual(['http', 'tcp', 'tls', 'dns', 'push', 'icmp', 'domain', 'grpc', 'multistep', 'browser']);
    const channelBody = doc.components.schemas.TenantChannelInput;
    expect(body('post', '/v1/notify/channels').$ref).toBe('#/components/schemas/TenantChannelInput');
    expect(channelBody.discriminator).toEqual({ propertyName: 'channel_type' });
    expect(channelBody.oneOf[0].properties.config.properties.url.pattern).toMatch(/^\^https\?:\/\//);
    // A check's channel body also takes {channel_id} (attach a tenant channel), which has no type:
    // no discriminator there, and the attach alternative states channel_type absent.
    const checkChannelBody = body('post', '/v1/checks/{check_id}/policy/channels');
    expect(checkChannelBody.discriminator).toBeUndefined();
    expect(checkChannelBody.oneOf[0].properties.config.properties.url.pattern).toMatch(/^\^https\?:\/\//);
    expect(checkChannelBody.oneOf.at(-1).properties.channel_type).toMatchObject({ not: {} });
    expect(checkChannelBody.oneOf.at(-1).required).toEqual(['channel_id']);
    const email = body('post', '/v1/settings/users/invite').properties.email;
    expect(email.format).toBe('email');
    expect(email.pattern).toBeDefined();
    expect(doc.components.schemas.PolicyInput.properties.repeat_interval_seconds.anyOf).toEqual([
      { type: 'number', const: 0 },
      { type: 'integer', minimum: 60, maximum: 86_400 },
    ]);
  });

  it('documents /v1/mcp as it answers: JSON-RPC bodies, batches, 202, and JSON-RPC errors', () => {
    const post = doc.paths['/v1/mcp'].post;
    expect(post.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(post.responses)).toEqual([
      '200',
      '202',
      '400',
      '401',
      '403',
      '404',
      '406',
      '413',
      '415',
      '429',
      '500',
    ]);
    const request = post.requestBody.content['application/json'].schema;
    expect(request.anyOf.map((s: { type?: string }) => s.type ?? 'message')).toEqual(['message', 'array']);
    expect(post.responses['200'].content['application/json'].schema.anyOf[1].type).toBe('array');
    expect(Object.keys(post.responses['200'].content)).toEqual(['application/json', 'text/event-stream']);
    // Accepted without a body (a legacy message POST; notifications or responses only).
    expect(post.responses['202']).toEqual({ description: 'Accepted' });
    const rpc = { $ref: '#/components/schemas/JsonRpcError' };
    for (const status of ['401', '406', '415'])
      expect(post.responses[status].content['application/json'].schema).toEqual(rpc);
    // A bad sessionId is the envelope's VALIDATION_ERROR; a body that is no message, JSON-RPC.
    expect(post.responses['400'].content['application/json'].schema.anyOf).toEqual([
      { $ref: '#/components/schemas/Error' },
      rpc,
    ]);
    expect(doc.paths['/v1/mcp'].get.responses['405'].content['application/json'].schema).toEqual(rpc);
    expect(doc.components.schemas.JsonRpcError.required).toEqual(['jsonrpc', 'error', 'id']);
  });

  it("documents the public pages' 404s in their own media types: an HTML page, a grey badge, JSON", () => {
    const page = doc.paths['/p/{slug}'].get.responses['404'].content;
    expect(Object.keys(page).sort()).toEqual(['application/json', 'text/html']);
    expect(page['text/html'].schema).toEqual({ type: 'string' });
    const badge = doc.paths['/p/{slug}/badge.svg'].get.responses['404'].content;
    expect(Object.keys(badge).sort()).toEqual(['application/json', 'image/svg+xml']);
    expect(Object.keys(doc.paths['/p/{slug}/status.json'].get.responses['404'].content)).toEqual([
      'application/json',
    ]);
  });

  it('declares the 401 (text/html) a private page answers on each of the eight routes behind its gate', () => {
    const gated = [
      ['get', '/p/{slug}'],
      ['get', '/p/{slug}/history'],
      ['get', '/p/{slug}/history/{month}'],
      ['get', '/p/{slug}/status.json'],
      ['get', '/p/{slug}/badge.svg'],
      ['get', '/p/{slug}/feed.rss'],
      ['get', '/p/{slug}/feed.atom'],
      ['post', '/p/{slug}/subscribe'],
    ] as const;
    for (const [method, path] of gated)
      expect(
        doc.paths[path][method].responses['401']?.content?.['text/html']?.schema,
        `${method} ${path}`,
      ).toEqual({
        type: 'string',
      });
  });

  it('states no default for a request body (PUT /v1/checks/{id} may be sent empty: required false)', () => {
    const put = doc.paths['/v1/checks/{id}'].put.requestBody;
    expect(put.required).toBe(false);
    expect(put.content['application/json'].schema).not.toHaveProperty('default');
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(
        item as Record<string, { requestBody?: { content: Record<string, { schema: object }> } }>,
      ))
        expect(
          op.requestBody?.content?.['application/json']?.schema ?? {},
          `${method} ${path}`,
        ).not.toHaveProperty('default');
  });

  it('states a maintenance window as one-off or recurring, each with its required fields', () => {
    for (const [path, method] of [
      ['/v1/maintenance', 'post'],
      ['/v1/maintenance/{id}', 'put'],
    ] as const) {
      const schema = doc.paths[path][method].requestBody.content['application/json'].schema;
      const [oneOff, recurring] = schema.anyOf;
      expect(oneOff.required).toEqual(expect.arrayContaining(['name', 'starts_at', 'ends_at']));
      expect(oneOff.properties).not.toHaveProperty('cron');
      expect(recurring.required).toEqual(expect.arrayContaining(['name', 'cron', 'duration_seconds']));
      expect(recurring.properties).not.toHaveProperty('starts_at');
      expect(recurring.properties.timezone.enum).toEqual(expect.arrayContaining(['UTC', 'Europe/Paris']));
      expect(recurring.properties.timezone.enum).not.toContain('Mars/Base');
      expect(oneOff.additionalProperties).toBe(false);
    }
  });

  it('states a notification route as channels to send to, an escalation (delay and channels together), or both', () => {
    const schema = doc.paths['/v1/notify/routes'].post.requestBody.content['application/json'].schema;
    const [direct, escalating] = schema.anyOf;
    expect(direct.required).toContain('channel_ids');
    expect(direct.properties.channel_ids.minItems).toBe(1);
    expect(direct.properties).not.toHaveProperty('escalate_after_seconds');
    expect(escalating.required).toEqual(
      expect.arrayContaining(['escalate_after_seconds', 'escalate_channel_ids']),
    );
    expect(escalating.properties.escalate_channel_ids.minItems).toBe(1);
  });

  it("passes Spectral's OpenAPI ruleset (spectral:oas) without an error", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-spectral-'));
    try {
      writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
      writeFileSync(join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
      const cli = fileURLToPath(import.meta.resolve('@stoplight/spectral-cli/dist/index.js'));
      const args = [cli, 'lint', join(dir, 'openapi.json'), '--ruleset', join(dir, '.spectral.yaml')];
      // Exit 1 when it finds an error; its JSON report is judged, not its exit code.
      const { stdout } = await promisify(execFile)(process.execPath, [...args, '-f', 'json', '-q'], {
        timeout: 120_000,
        maxBuffer: 16 * 1024 * 1024,
      }).catch((err: { stdout: string }) => err);
      const findings = JSON.parse(stdout) as {
        code: string;
        severity: number;
        path: string[];
        message: string;
      }[];
      const errors = findings
        .filter((f) => f.severity === 0)
        .map((f) => `${f.code} ${f.path.join('.')}: ${f.message}`);
      expect(errors).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });
});
