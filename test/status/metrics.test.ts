import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newCheck,
  newEntity,
  quietTcpCheck,
  record,
  recordSlot,
  soloTcpCheck,
} from '../checks/check-fixtures.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { promtoolCheck } from '../support/prometheus.ts';

/**
 * GET /v1/metrics (DECISIONS.md "Operations features (wave 3)", docs/metrics.md): the tenant's
 * series in the Prometheus text format, read-only keys allowed, another tenant's series never in
 * the answer, and the output accepted by Debian's `promtool check metrics`.
 */

/** The labels of an exposed series `name{a="b",...}`, unescaped. */
function labelsOf(series: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const m of series.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
    labels[m[1] ?? ''] = (m[2] ?? '').replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
  }
  return labels;
}

/**
 * The value of the sample of `series` (a name and some of its labels, as exposed), or undefined:
 * the labels given must all match; the sample may carry more (e.g. the names).
 */
function sample(text: string, series: string): number | undefined {
  const name = series.split('{')[0] ?? '';
  const wanted = labelsOf(series);
  const line = text.split('\n').find((l) => {
    const head = l.slice(0, l.lastIndexOf(' '));
    if (head.split('{')[0] !== name) return false;
    const have = labelsOf(head);
    return Object.entries(wanted).every(([k, v]) => have[k] === v);
  });
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

const T0 = Date.parse('2030-01-01T00:00:00Z');

describe.each(runtimes)('GET /v1/metrics ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let other: { tenantId: string; key: string };
  let readOnlyKey: string;
  const ids = {
    upEntity: '',
    upCheck: '',
    downEntity: '',
    pushCheck: '',
    otherEntity: '',
    otherCheck: '',
    tlsEntity: '',
    tlsCheck: '',
  };
  const slugs = { up: '', down: '', other: '' };

  beforeAll(async () => {
    api = await start({ scheduler: false });
    other = await api.createTenant('Metrics-Other');
    const ro = await api.request('POST', '/v1/auth/keys', {
      body: { label: 'scraper', is_read_only: true },
      key: api.adminKey,
    });
    expect(ro.status, ro.text).toBe(201);
    readOnlyKey = ro.body.key;

    ids.upEntity = await newEntity(api, { blueprint: 'web' });
    ids.upCheck = await newCheck(api, soloTcpCheck(ids.upEntity));
    await recordSlot(api, ids.upCheck, { success: true, latency_ms: 42, checkedAtMs: T0 });
    // Names with a quote and a backslash: the exposition format escapes both in label values.
    ids.tlsEntity = await newEntity(api, { blueprint: 'edge', name: 'Shop "north" \\ eu' });
    ids.tlsCheck = await newCheck(
      api,
      soloTcpCheck(ids.tlsEntity, {
        check_type: 'tls',
        config: { host: 'example.com' },
        name: 'Cert "main"',
      }),
    );
    await recordSlot(api, ids.tlsCheck, { success: true, checkedAtMs: T0, details: { days_left: 42 } });
    ids.downEntity = await newEntity(api, { blueprint: 'jobs' });
    ids.pushCheck = await newCheck(api, {
      entity_id: ids.downEntity,
      check_type: 'push',
      interval_seconds: 3600,
    });
    await record(api, ids.pushCheck, { success: false, checkedAtMs: T0 });
    // A push check's results are counted when their 5-minute bucket closes: a result in the next one closes it.
    await record(api, ids.pushCheck, { success: false, checkedAtMs: T0 + 6 * 60_000 });

    ids.otherEntity = await newEntity(api, { key: other.key, blueprint: 'web' });
    ids.otherCheck = await newCheck(
      api,
      quietTcpCheck(ids.otherEntity, { interval_seconds: 86_399 }),
      other.key,
    );
    await recordSlot(api, ids.otherCheck, { success: true, checkedAtMs: T0, tenantId: other.tenantId });
    await api.drainChanges();

    const slugOf = async (id: string, key: string) => {
      const board = await api.request('GET', '/v1/status', { key });
      return board.body.entities.find((e: { id: string }) => e.id === id).slug as string;
    };
    slugs.up = await slugOf(ids.upEntity, api.adminKey);
    slugs.down = await slugOf(ids.downEntity, api.adminKey);
    slugs.other = await slugOf(ids.otherEntity, other.key);
  }, 120_000);

  afterAll(() => api?.close());

  it('answers the tenant state in the Prometheus text format', async () => {
    const res = await api.request('GET', '/v1/metrics', { key: api.adminKey });
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4');
    const text = res.text;
    expect(sample(text, `vigil_entity_state{blueprint="web",entity="${slugs.up}",state="up"}`)).toBe(1);
    expect(sample(text, `vigil_entity_state{blueprint="web",entity="${slugs.up}",state="down"}`)).toBe(0);
    expect(
      sample(text, `vigil_check_up{check_id="${ids.upCheck}",entity="${slugs.up}",check_type="tcp"}`),
    ).toBe(1);
    // The push check's entity: the state the board shows is the one at 1.
    const board = await api.request('GET', '/v1/status', { key: api.adminKey });
    const jobs = board.body.entities.find((e: { id: string }) => e.id === ids.downEntity);
    expect(
      sample(text, `vigil_entity_state{blueprint="jobs",entity="${slugs.down}",state="${jobs.state}"}`),
    ).toBe(1);
    const pushUp = sample(
      text,
      `vigil_check_up{check_id="${ids.pushCheck}",entity="${slugs.down}",check_type="push"}`,
    );
    expect(pushUp).toBe(jobs.state === 'unknown' ? undefined : jobs.state === 'down' ? 0 : 1);
    expect(
      sample(
        text,
        `vigil_check_latency_seconds{check_id="${ids.upCheck}",entity="${slugs.up}",check_type="tcp"}`,
      ),
    ).toBe(0.042);
    // The solo cell runs slower than a rollup bucket: its slot counted its one success; the push
    // check's closed bucket its one failure.
    expect(sample(text, 'vigil_check_results_total{status="success"}')).toBe(2);
    expect(sample(text, 'vigil_check_results_total{status="failure"}')).toBe(1);
    expect(sample(text, 'vigil_alerts_total{status="sent"}')).toBe(0);
    expect(sample(text, 'vigil_alerts_total{status="failed"}')).toBe(0);
    expect(sample(text, 'vigil_entities{state="up"}')).toBe(2);
    expect(sample(text, `vigil_entities{state="${jobs.state}"}`)).toBe(1);
    expect(sample(text, 'vigil_metrics_truncated')).toBe(0);
  });

  it('names each check and entity in labels, escaped, and exposes certificate days left', async () => {
    const text = (await api.request('GET', '/v1/metrics', { key: api.adminKey })).text;
    const up = text.split('\n').find((l) => l.startsWith('vigil_check_up{') && l.includes(ids.tlsCheck));
    expect(up).toContain('check_name="Cert \\"main\\""');
    expect(up).toContain('entity_name="Shop \\"north\\" \\\\ eu"');
    expect(
      sample(
        text,
        `vigil_check_certificate_remaining_seconds{check_id="${ids.tlsCheck}",check_name="Cert \\"main\\"",entity_name="Shop \\"north\\" \\\\ eu"}`,
      ),
    ).toBe(42 * 86_400);
    // Only checks whose last result carried a certificate expiry have the series.
    expect(text).not.toMatch(new RegExp(`vigil_check_certificate_remaining_seconds\\{[^}]*${ids.upCheck}`));
    expect(sample(text, `vigil_entity_state{entity="${slugs.up}",state="up"}`)).toBe(1);
  });

  it('passes promtool check metrics', async () => {
    const res = await api.request('GET', '/v1/metrics', { key: readOnlyKey });
    const checked = await promtoolCheck(res.text);
    expect(checked.output).toBe('');
    expect(checked.code).toBe(0);
  });

  it('answers read-only keys, and no one without a key', async () => {
    const ro = await api.request('GET', '/v1/metrics', { key: readOnlyKey });
    expect(ro.status, ro.text).toBe(200);
    expect(ro.text).toContain(ids.upCheck);
    const none = await api.request('GET', '/v1/metrics');
    expect(none.status).toBe(401);
  });

  it('never shows another tenant its series', async () => {
    const mine = (await api.request('GET', '/v1/metrics', { key: api.adminKey })).text;
    const theirs = (await api.request('GET', '/v1/metrics', { key: other.key })).text;
    expect(theirs).toContain(ids.otherCheck);
    expect(sample(theirs, `vigil_entity_state{blueprint="web",entity="${slugs.other}",state="up"}`)).toBe(1);
    for (const id of [ids.upCheck, ids.pushCheck]) expect(theirs).not.toContain(id);
    expect(theirs).not.toContain(`entity="${slugs.up}"`);
    expect(theirs).not.toContain(`entity="${slugs.down}"`);
    expect(mine).not.toContain(ids.otherCheck);
    expect(mine).not.toContain(`entity="${slugs.other}"`);
    expect(sample(theirs, 'vigil_check_results_total{status="failure"}')).toBe(0);
  });

  it('narrows to one blueprint with blueprint_slug', async () => {
    const res = await api.request('GET', '/v1/metrics?blueprint_slug=jobs', { key: api.adminKey });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain(`entity="${slugs.down}"`);
    expect(res.text).not.toContain(`entity="${slugs.up}"`);
  });
});

describe.each(runtimes)('GET /v1/metrics alert counters ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let receiver: Server;
  let received = 0;

  beforeAll(async () => {
    receiver = createServer((_req, res) => {
      received += 1;
      res.end('ok');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    api = await start({ scheduler: false, env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' } });
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  const alerts = async () => {
    const text = (await api.request('GET', '/v1/metrics', { key: api.adminKey })).text;
    return {
      sent: sample(text, 'vigil_alerts_total{status="sent"}'),
      failed: sample(text, 'vigil_alerts_total{status="failed"}'),
    };
  };

  it('counts alerts by their final status, and not test messages', async () => {
    const entityId = await newEntity(api, { blueprint: 'queue' });
    const checkId = await newCheck(api, {
      entity_id: entityId,
      check_type: 'push',
      interval_seconds: 3600,
      failure_threshold: 1,
    });
    const { port } = receiver.address() as AddressInfo;
    const channel = await api.request('POST', `/v1/checks/${checkId}/policy/channels`, {
      key: api.adminKey,
      body: { channel_type: 'webhook', config: { url: `http://127.0.0.1:${port}/hook` } },
    });
    expect(channel.status, channel.text).toBe(201);
    const test = await api.request('POST', `/v1/checks/${checkId}/policy/test`, { key: api.adminKey });
    expect(test.status, test.text).toBe(200);
    expect(received).toBe(1);
    expect(await alerts()).toEqual({ sent: 0, failed: 0 });

    // up, then down: the down alert is sent (the first result's up is skipped, never sent).
    await record(api, checkId, { success: true, checkedAtMs: T0 });
    await record(api, checkId, { success: false, checkedAtMs: T0 + 1000 });
    await api.drainChanges();
    await api.runNotifyJobs();
    // runNotifyJobs returns when no job waits or runs, while a send that failed once is retried a
    // second later (once in CI the receiver had one request when it returned, cause not seen):
    // the counters are read once the alert is final, whatever its attempts.
    await expect.poll(() => received).toBe(2);
    await expect.poll(alerts).toEqual({ sent: 1, failed: 0 });
  });
});
