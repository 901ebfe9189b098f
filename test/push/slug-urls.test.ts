import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlueprintStore } from '../../lib/catalog/blueprints/blueprint-store.ts';
import { hostPolicyOf } from '../../lib/http/origin-policy.ts';
import type { RouteContext } from '../../lib/http/types.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { RateLimitedError } from '../../lib/platform/errors.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import type { SlugResolver } from '../../lib/push/pings/ping-target.ts';
import { composeSlugUrls } from '../../lib/push/slugs/slug-urls.ts';
import { UnknownPingTokenError } from '../../lib/push/tokens/token-service.ts';
import { createCursorSeal } from '../../lib/store/cursor-seal.ts';
import { loadCursorSecret } from '../../lib/store/cursor-secret.ts';
import { join } from '../auth/team-helpers.ts';
import { type ApiHarness, bothRuntimes, type LocalHarness } from '../support/api-harness.ts';

/** A ping's request context as the resolver sees it (only the source address matters to it). */
const ctxFrom = (sourceIp: string): RouteContext => ({
  method: 'GET',
  path: '/ping/…',
  params: {},
  query: {},
  body: undefined,
  rawBody: Buffer.alloc(0),
  headers: {},
  requestId: 'req-test',
  sourceIp,
  logger: silentLogger,
});

/** Slug ping URLs (`/ping/<ping key>/<slug>`): the ping key, unique slugs, the resolver and `?create=1`. */
describe.each(bothRuntimes)('slug ping URLs ($runtime runtime)', ({ start }) => {
  const clock = createFakeClock(Date.parse('2026-03-02T10:00:10.000Z'));
  let api: ApiHarness;
  let entityId: string;
  let resolver: SlugResolver;
  const ctx = ctxFrom('192.0.2.10');
  const call = (method: string, path: string, body?: unknown, key = api.adminKey) =>
    api.request(method, path, { key, body });

  /** The resolver as the app composes it, over the harness's table and services. */
  const composeResolver = () =>
    composeSlugUrls({
      table: api.table,
      clock,
      logger: silentLogger,
      hosts: hostPolicyOf({ publicUrl: undefined, allowedHosts: [] }),
      cursors: createCursorSeal(() => loadCursorSecret(api.table)),
      blueprints: createBlueprintStore(api.table),
      entities: api.app.entities,
      tenants: api.app.tenants,
      checkService: api.app.checkService,
    }).slugResolver;

  const newPingKey = async (key = api.adminKey) => {
    const res = await call('POST', '/v1/settings/ping-key', undefined, key);
    expect(res.status, res.text).toBe(201);
    return res.body.ping_key as string;
  };
  const newCheck = async (slug: string | undefined, key = api.adminKey, entity = entityId) => {
    const res = await call(
      'POST',
      '/v1/checks',
      {
        entity_id: entity,
        check_type: 'push',
        interval_seconds: 3600,
        ...(slug ? { config: { slug } } : {}),
      },
      key,
    );
    return res;
  };
  const unknown = (promise: Promise<unknown>) =>
    expect(promise).rejects.toBeInstanceOf(UnknownPingTokenError);

  beforeAll(async () => {
    api = await start({ clock });
    await call('POST', '/v1/blueprints', { slug: 'cron', name: 'Cron job' });
    entityId = (await call('POST', '/v1/blueprints/cron/entities', { slug: 'backup', name: 'Backup' })).body
      .id;
    resolver = composeResolver();
  });
  afterAll(async () => {
    await api.close();
  });

  it('creates the ping key once, shows it once, and describes it without it', async () => {
    const tenant = await api.createTenant('Keyless');
    const before = await call('GET', '/v1/settings/ping-key', undefined, tenant.key);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ exists: false, prefix: null, created_at: null });

    const created = await call('POST', '/v1/settings/ping-key', undefined, tenant.key);
    expect(created.status, created.text).toBe(201);
    const key = created.body.ping_key as string;
    // Healthchecks' shape: neither a UUID nor a legacy vpt_ token.
    expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(key.startsWith('vpt_')).toBe(false);
    const origin = api.runtime === 'local' ? (api as LocalHarness).local.url : 'https://api.example.com';
    // No VIGIL_PUBLIC_URL: the address this request came in on.
    expect(created.body).toMatchObject({
      prefix: key.slice(0, 4),
      slug_url_pattern: `${origin}/ping/${key}/<slug>`,
    });

    const after = await call('GET', '/v1/settings/ping-key', undefined, tenant.key);
    expect(after.body).toEqual({
      exists: true,
      prefix: key.slice(0, 4),
      created_at: created.body.created_at,
    });
    expect(after.text).not.toContain(key);
    expect(api.logs.join('\n')).not.toContain(key);
  });

  it('lets members read whether there is a ping key but only admins make one (403)', async () => {
    const member = await join(api, api.adminKey);
    const refused = await call('POST', '/v1/settings/ping-key', undefined, member.key);
    expect(refused.status, refused.text).toBe(403);
    const read = await call('GET', '/v1/settings/ping-key', undefined, member.key);
    expect(read.status).toBe(200);
    expect(Object.keys(read.body).sort()).toEqual(['created_at', 'exists', 'prefix']);
  });

  it('rotates the ping key: the old key is unknown at once, the new one resolves', async () => {
    const old = await newPingKey();
    const check = await newCheck('rotated');
    expect(check.status, check.text).toBe(201);
    expect(await resolver.resolve(ctx, old, 'rotated', { create: false })).toEqual({
      tenantId: api.tenantId,
      checkId: check.body.id,
    });

    const rotated = await newPingKey();

    expect(rotated).not.toBe(old);
    await unknown(resolver.resolve(ctx, old, 'rotated', { create: false }));
    await unknown(resolver.resolve(ctx, old, 'rotated', { create: true }));
    expect((await resolver.resolve(ctx, rotated, 'rotated', { create: false })).checkId).toBe(check.body.id);
  });

  it('keeps slugs unique per tenant (409 naming config.slug), freed by a slug change and by a delete', async () => {
    const first = await newCheck('nightly');
    expect(first.status, first.text).toBe(201);
    expect(first.body.config.slug).toBe('nightly');

    const duplicate = await newCheck('nightly');
    expect(duplicate.status, duplicate.text).toBe(409);
    expect(duplicate.body.error).toContain('config.slug');
    expect(duplicate.body.error).toContain('"nightly"');
    const other = await newCheck('weekly');
    const taken = await call('PUT', `/v1/checks/${other.body.id}`, { config: { slug: 'nightly' } });
    expect(taken.status, taken.text).toBe(409);
    expect(taken.body.error).toContain('config.slug');

    // A slug change frees the old slug.
    const renamed = await call('PUT', `/v1/checks/${first.body.id}`, { config: { slug: 'nightly-2' } });
    expect(renamed.status, renamed.text).toBe(200);
    const second = await newCheck('nightly');
    expect(second.status, second.text).toBe(201);
    expect((await newCheck('nightly-2')).status).toBe(409);

    // A deleted check frees its slug at once.
    expect((await call('DELETE', `/v1/checks/${second.body.id}`)).status).toBe(204);
    const third = await newCheck('nightly');
    expect(third.status, third.text).toBe(201);
    const key = await newPingKey();
    expect((await resolver.resolve(ctx, key, 'nightly', { create: false })).checkId).toBe(third.body.id);
  });

  it('frees the slugs of an entity’s checks when the entity is deleted', async () => {
    const key = await newPingKey();
    await call('POST', '/v1/blueprints/cron/entities', { slug: 'short-lived', name: 'Short-lived' });
    const doomed = (await call('GET', '/v1/blueprints/cron/entities/short-lived')).body.id as string;
    const check = await newCheck('doomed-job', api.adminKey, doomed);
    expect(check.status, check.text).toBe(201);
    expect((await resolver.resolve(ctx, key, 'doomed-job', { create: false })).checkId).toBe(check.body.id);

    expect((await call('DELETE', '/v1/blueprints/cron/entities/short-lived')).status).toBe(204);

    // Gone at once for pings; the slug is free once the purge has deleted the check.
    await unknown(resolver.resolve(ctx, key, 'doomed-job', { create: false }));
    await api.drainChanges();
    await expect
      .poll(async () => (await newCheck('doomed-job')).status, { timeout: 10_000, interval: 200 })
      .toBe(201);
  });

  it('does not let another tenant’s slug be reached with this tenant’s key, nor its key reach this tenant', async () => {
    const other = await api.createTenant('Other');
    await call('POST', '/v1/blueprints', { slug: 'cron', name: 'Cron job' }, other.key);
    const otherEntity = (
      await call('POST', '/v1/blueprints/cron/entities', { slug: 'backup', name: 'Backup' }, other.key)
    ).body.id;
    const theirs = await newCheck('theirs', other.key, otherEntity);
    expect(theirs.status, theirs.text).toBe(201);
    // The same slug in two tenants: unique per tenant only.
    const ours = await newCheck('shared-name');
    const theirShared = await newCheck('shared-name', other.key, otherEntity);
    expect([ours.status, theirShared.status]).toEqual([201, 201]);
    const ourKey = await newPingKey();
    const theirKey = await newPingKey(other.key);

    await unknown(resolver.resolve(ctx, ourKey, 'theirs', { create: false }));
    expect((await resolver.resolve(ctx, ourKey, 'shared-name', { create: false })).checkId).toBe(
      ours.body.id,
    );
    expect(await resolver.resolve(ctx, theirKey, 'shared-name', { create: false })).toEqual({
      tenantId: other.tenantId,
      checkId: theirShared.body.id,
    });
    // With ?create=1 our key makes our own check; theirs is untouched.
    const made = await resolver.resolve(ctx, ourKey, 'theirs', { create: true });
    expect(made).toMatchObject({ tenantId: api.tenantId, created: true });
    expect(made.checkId).not.toBe(theirs.body.id);
  });

  it('answers unknown keys and slugs as not found', async () => {
    const key = await newPingKey();
    await unknown(resolver.resolve(ctx, key, 'no-such-check', { create: false }));
    await unknown(resolver.resolve(ctx, key, 'not a slug', { create: true }));
    await unknown(resolver.resolve(ctx, 'A'.repeat(22), 'nightly', { create: true }));
    await unknown(resolver.resolve(ctx, 'not-a-key', 'nightly', { create: false }));
  });

  it('pings through slug URLs: 200 OK, ?create=1 201 Created once, 404 not found for unknown ones', async () => {
    const key = await newPingKey();
    const check = await newCheck('via-route');
    expect(check.status, check.text).toBe(201);

    const ok = await api.request('GET', `/ping/${key}/via-route`);
    expect([ok.status, ok.text]).toEqual([200, 'OK']);
    expect((await call('GET', `/v1/checks/${check.body.id}`)).body.state).toBe('up');
    const made = await api.request('POST', `/ping/${key}/made-by-ping?create=1`, { rawBody: 'hello' });
    expect([made.status, made.text]).toEqual([201, 'Created']);
    const again = await api.request('GET', `/ping/${key}/made-by-ping?create=1`);
    expect([again.status, again.text]).toEqual([200, 'OK']);
    for (const path of [`/ping/${key}/no-such-check`, `/ping/${'C'.repeat(22)}/via-route?create=1`]) {
      const res = await api.request('GET', path);
      expect([res.status, res.text]).toEqual([404, 'not found']);
    }
    // The ping key is a credential: never in the request log.
    expect(api.logs.join('\n')).not.toContain(key);
  });

  it('?create=1 makes a push check with Healthchecks’ defaults on the heartbeats entity, once', async () => {
    const key = await newPingKey();

    const first = await resolver.resolve(ctx, key, 'db-backup', { create: true });
    const again = await resolver.resolve(ctx, key, 'db-backup', { create: true });
    const plain = await resolver.resolve(ctx, key, 'db-backup', { create: false });

    expect(first).toMatchObject({ tenantId: api.tenantId, created: true });
    expect(again).toEqual({ tenantId: api.tenantId, checkId: first.checkId });
    expect(plain).toEqual({ tenantId: api.tenantId, checkId: first.checkId });
    const check = (await call('GET', `/v1/checks/${first.checkId}`)).body;
    expect(check).toMatchObject({
      check_type: 'push',
      execution_mode: 'push',
      name: 'db-backup',
      interval_seconds: 86_400,
      blueprint_slug: 'heartbeats',
      entity_slug: 'heartbeats',
      failure_threshold: 1,
      config: { slug: 'db-backup', grace_seconds: 86_400 + 3_600 },
    });
  });

  it('records what ?create=1 makes in the audit log, the ping key (its prefix) as the actor', async () => {
    const tenant = await api.createTenant('Audited');
    const key = await newPingKey(tenant.key);
    const prefix = key.slice(0, 4);

    expect((await api.request('GET', `/ping/${key}/first-job?create=1`)).status).toBe(201);
    expect((await api.request('GET', `/ping/${key}/second-job?create=1`)).status).toBe(201);

    const audit = await call('GET', `/v1/audit?actor=${prefix}`, undefined, tenant.key);
    expect(audit.status, audit.text).toBe(200);
    const entries = audit.body.entries as Array<Record<string, unknown>>;
    expect(entries.map((e) => e.action)).toEqual([
      'check.create',
      'check.create',
      'entity.create',
      'blueprint.create',
    ]);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        actor: { type: 'ping_key', id: prefix },
        via: 'api',
        source_ip: '127.0.0.1',
      });
      expect(JSON.stringify(entry)).not.toContain(key);
    }
    const [second, first] = entries;
    expect(second?.summary).toContain('name: "second-job"');
    expect(first?.summary).toContain('name: "first-job"');
    const madeId = (second?.target as { id: string } | undefined)?.id;
    const made = await call('GET', `/v1/checks/${madeId}`, undefined, tenant.key);
    expect(made.body).toMatchObject({ name: 'second-job', config: { slug: 'second-job' } });
  });

  it('takes a check ?create=1 made down on its first /fail, as Healthchecks does', async () => {
    const key = await newPingKey();
    const made = await api.request('POST', `/ping/${key}/nightly-dump?create=1`, { rawBody: 'ok' });
    expect([made.status, made.text]).toEqual([201, 'Created']);

    const failed = await api.request('POST', `/ping/${key}/nightly-dump/fail`, { rawBody: 'disk full' });

    expect([failed.status, failed.text]).toEqual([200, 'OK']);
    const checks = (await call('GET', '/v1/checks')).body as Array<{
      config: { slug?: string };
      state: string;
      consecutive_failures: number;
    }>;
    expect(checks.find((c) => c.config.slug === 'nightly-dump')).toMatchObject({
      state: 'down',
      consecutive_failures: 1,
    });
  });

  it('makes one check of concurrent first pings of a new slug', async () => {
    const tenant = await api.createTenant('Concurrent');
    const key = await newPingKey(tenant.key);

    const targets = await Promise.all(
      Array.from({ length: 5 }, () => resolver.resolve(ctx, key, 'fresh', { create: true })),
    );

    expect(targets.filter((t) => t.created === true)).toHaveLength(1);
    expect(new Set(targets.map((t) => t.checkId)).size).toBe(1);
    const checks = (await call('GET', '/v1/checks', undefined, tenant.key)).body as Array<{
      config: { slug?: string };
    }>;
    expect(checks.filter((c) => c.config.slug === 'fresh')).toHaveLength(1);
  });

  it('bounds ?create=1 to 10 new checks per account and minute', async () => {
    const tenant = await api.createTenant('Bursty');
    const key = await newPingKey(tenant.key);
    clock.set(Date.parse('2026-03-02T11:00:05.000Z'));

    for (let i = 0; i < 10; i += 1) {
      expect((await resolver.resolve(ctx, key, `job-${i}`, { create: true })).created).toBe(true);
    }
    await expect(resolver.resolve(ctx, key, 'job-10', { create: true })).rejects.toBeInstanceOf(
      RateLimitedError,
    );
    // Existing slugs still resolve; the next minute allows more.
    expect((await resolver.resolve(ctx, key, 'job-3', { create: true })).created).toBeUndefined();
    clock.advance(60_000);
    expect((await resolver.resolve(ctx, key, 'job-10', { create: true })).created).toBe(true);
  });
});

/** Wrong ping keys count as failed authentications of the caller's address, as wrong tokens do. */
describe.each(bothRuntimes)('slug ping URLs under the failure limits ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await start({
      clock: createFakeClock(Date.parse('2026-03-02T10:00:00.000Z')),
      env: { VIGIL_AUTH_FAILURE_LIMIT: '2', VIGIL_AUTH_FAILURE_ADDRESS_LIMIT: '5' },
    });
  });
  afterAll(async () => {
    await api.close();
  });

  it('refuses a guessed ping key with 429 once it failed too often, whatever its answer would be', async () => {
    const key = (await api.request('POST', '/v1/settings/ping-key', { key: api.adminKey })).body.ping_key;
    const guess = 'D'.repeat(22);

    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await api.request('GET', `/ping/${guess}/job`)).status);

    expect(statuses).toEqual([404, 404, 429]);
    // A key that is right but not guessed is still answered (another credential's bucket).
    expect((await api.request('GET', `/ping/${key}/job`)).status).toBe(404);
  });
});
