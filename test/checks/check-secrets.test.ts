import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/domain/principal.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { enableToolsets } from '../support/toolsets.ts';
import { newCheck, newEntity } from './check-fixtures.ts';

/**
 * An http check's secrets stay with it (docs/api.md "Checks"): header values are sent only to the
 * request they were given for, so a PUT changing target_url (origin, path or query) or the method
 * clears them unless it gives them again; read-only keys
 * see target_url without its credentials and secret-looking query values, over the API and MCP.
 */

describe.each(runtimes)('http check secrets ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let readOnlyKey: string;
  const call = (method: string, path: string, body?: unknown, key = api.adminKey) =>
    api.request(method, path, { key, body });
  const httpCheck = async (target_url: string, headers: Record<string, string> = {}) =>
    newCheck(api, {
      entity_id: await newEntity(api),
      check_type: 'http',
      target_url,
      headers,
      interval_seconds: 86_400,
    });

  beforeAll(async () => {
    api = await start({ scheduler: false });
    const ro = await call('POST', '/v1/auth/keys', { label: 'read-only', is_read_only: true });
    readOnlyKey = ro.body.key;
  });
  afterAll(async () => {
    await api?.close();
  });

  it('clears stored header values when a PUT changes where the request goes or its method', async () => {
    const secrets = { Authorization: 'Bearer s3cret-token', 'X-Api-Key': 'k3y-value' };
    const id = await httpCheck('https://status.example.com/health', secrets);
    const path = `/v1/checks/${id}`;
    const stored = async () => (await api.app.checks.get(api.tenantId, id))?.headers;

    // The same request (the default port written out, a fragment, ******** sent back): the values stay.
    const samePlace = await call('PUT', path, {
      target_url: 'https://status.example.com:443/health#top',
      method: 'GET',
      headers: { Authorization: '********', 'X-Api-Key': '********' },
      timeout_ms: 4000,
    });
    expect(samePlace.status, samePlace.text).toBe(200);
    expect(await stored()).toEqual(secrets);

    // ******** cannot carry a stored value to another request.
    const echoed = await call('PUT', path, {
      target_url: 'https://status.example.com/echo',
      headers: { Authorization: '********', 'X-Api-Key': 'new-key' },
    });
    expect(echoed.status).toBe(400);
    expect(echoed.body.details).toEqual([
      { path: 'headers.Authorization', message: expect.stringContaining('give the value again') },
    ]);
    expect(await stored()).toEqual(secrets);

    for (const change of [
      { target_url: 'http://status.example.com/health' },
      { target_url: 'https://status.example.com:8443/health' },
      { target_url: 'https://collector.example.net/health' },
      { target_url: 'https://status.example.com/anything' },
      { target_url: 'https://status.example.com/health?echo=1' },
      { method: 'POST' },
    ]) {
      const moved = await call('PUT', path, change);
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body.headers, JSON.stringify(change)).toEqual({});
      expect(await stored()).toEqual({});
      await call('PUT', path, {
        target_url: 'https://status.example.com/health',
        method: 'GET',
        headers: secrets,
      });
      expect(await stored()).toEqual(secrets);
    }

    const withNewValues = await call('PUT', path, {
      target_url: 'https://collector.example.net/health',
      headers: { Authorization: 'Bearer for-the-collector' },
    });
    expect(withNewValues.status, withNewValues.text).toBe(200);
    expect(await stored()).toEqual({ Authorization: 'Bearer for-the-collector' });
  });

  it('shows read-only keys target_url without credentials and tokens, over the API and MCP', async () => {
    const target =
      'https://monitor:hunter22@status.example.com/health?region=eu&api_key=abc123&X-Amz-Signature=f00';
    const shown =
      'https://********@status.example.com/health?region=eu&api_key=********&X-Amz-Signature=********';
    const id = await httpCheck(target);
    const check = await call('GET', `/v1/checks/${id}`, undefined, readOnlyKey);
    expect(check.body.target_url).toBe(shown);
    const list = await call('GET', `/v1/checks?entity_id=${check.body.entity_id}`, undefined, readOnlyKey);
    expect(list.body.map((c: { target_url: string }) => c.target_url)).toEqual([shown]);
    const paged = await call('GET', '/v1/checks?limit=1000', undefined, readOnlyKey);
    expect(paged.text).not.toContain('hunter22');
    expect(paged.text).not.toContain('abc123');
    expect((await call('GET', `/v1/checks/${id}`)).body.target_url).toBe(target);

    await enableToolsets(api, api.adminKey);
    const viewer: Principal = {
      tenantId: api.tenantId,
      userId: 'usr_viewer',
      keyId: 'key_viewer',
      role: 'member',
      readOnly: true,
    };
    const entity = await api.app.tools.call(viewer, 'get_entity', {
      blueprint_slug: check.body.blueprint_slug,
      entity_slug: check.body.entity_slug,
    });
    expect(entity?.isError).toBeFalsy();
    expect(JSON.stringify(entity)).toContain(shown);
    expect(JSON.stringify(entity)).not.toContain('hunter22');
  });

  it('keeps the stored target_url when a PUT sends back the read-only view, and refuses a changed one', async () => {
    const target = 'https://user:pw-123456@status.example.com/health?token=t0k3n';
    const id = await httpCheck(target);
    const shown = (await call('GET', `/v1/checks/${id}`, undefined, readOnlyKey)).body.target_url;
    expect(shown).toBe('https://********@status.example.com/health?token=********');

    const echoed = await call('PUT', `/v1/checks/${id}`, { target_url: shown, timeout_ms: 2000 });
    expect(echoed.status, echoed.text).toBe(200);
    expect(echoed.body.target_url).toBe(target);
    const changed = await call('PUT', `/v1/checks/${id}`, { target_url: `${shown}&x=1` });
    expect(changed.status).toBe(400);
    expect(changed.body.details?.[0]?.path).toBe('target_url');
    const created = await call('POST', '/v1/checks', {
      entity_id: await newEntity(api),
      check_type: 'http',
      target_url: shown,
    });
    expect(created.status).toBe(400);
    expect((await api.app.checks.get(api.tenantId, id))?.target_url).toBe(target);
  });
});
