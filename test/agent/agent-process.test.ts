import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { probeResultSchema } from '../../lib/agent/probe-result.ts';
import { SITE_PASSWORD, startBrowserSite } from '../check-types/support/browser-site.ts';
import { keyFile, startAgent, TEST_LOCATION_KEY, tcpPorts } from '../support/agent-process.ts';
import { PROMTOOL, promtoolCheck } from '../support/prometheus.ts';
import { resultKey } from '../support/vigil-stand-in.ts';
import { WAIT } from '../support/wait.ts';
import { agentTestProcesses, SLOT } from './agent-rig.ts';

const processes = agentTestProcesses();

const job = (job_id: string, check: Record<string, unknown>) => ({
  job_id,
  slot: SLOT,
  check: { timeout_ms: 2000, ...check },
});

describe('vigil agent (a real process against a stand-in Vigil)', () => {
  it('leases jobs, probes http and tcp targets from this host, and posts their results', async () => {
    const { vigil, target } = await processes.standInAndTarget();
    const ports = await tcpPorts();
    processes.afterTest(ports.close);
    vigil.enqueue(
      job('http-ok', { check_type: 'http', target_url: target.url('/ok'), expected_status: 200 }),
      job('http-500', { check_type: 'http', target_url: target.url('/fail'), expected_status: 200 }),
      // Answered after 300 ms: slower than degraded_latency_ms whatever the machine.
      job('http-body', {
        check_type: 'http',
        target_url: target.url('/slow'),
        body_contains: 'hello from',
        degraded_latency_ms: 1,
      }),
      job('tcp-open', { check_type: 'tcp', host: '127.0.0.1', port: ports.open }),
      job('tcp-closed', { check_type: 'tcp', host: '127.0.0.1', port: ports.closed }),
      { ...job('push', { check_type: 'push' }), unchecked: true },
      job('metadata', { check_type: 'http', target_url: 'http://169.254.169.254/latest/meta-data/' }),
    );

    const agent = startAgent(['--url', vigil.url, '--key-file', keyFile(), '--metrics-port', '0']);

    await expect.poll(() => vigil.state.stored.size, WAIT).toBe(7);
    const stored = (id: string) => vigil.state.stored.get(resultKey({ job_id: id, slot: SLOT }))?.result;
    for (const id of ['http-ok', 'http-500', 'http-body', 'tcp-open', 'tcp-closed', 'push', 'metadata']) {
      expect(probeResultSchema.safeParse(stored(id)).success, id).toBe(true);
      expect(Date.parse(stored(id)?.checked_at ?? '')).toBeGreaterThan(Date.now() - 60_000);
    }
    expect(stored('http-ok')).toMatchObject({ success: true, status_code: 200, error_message: '' });
    expect(stored('http-500')).toMatchObject({ success: false, status_code: 500 });
    expect(stored('http-500')?.error_message).toMatch(/500/);
    expect(stored('http-body')).toMatchObject({ success: true, degraded: true, status_code: 200 });
    expect(stored('http-body')?.error_message).toMatch(/degraded_latency_ms 1/);
    expect(stored('tcp-open')).toMatchObject({ success: true, status_code: 0, error_message: '' });
    expect(stored('tcp-closed')).toMatchObject({ success: false, status_code: 0 });
    expect(stored('tcp-closed')?.error_message).toMatch(/refused/i);
    // A type no agent probes: a failed result that says why, not a silent gap.
    expect(stored('push')).toMatchObject({
      success: false,
      error_message: 'this agent cannot probe push checks',
    });
    // The agent host's egress, but never a cloud metadata address.
    expect(stored('metadata')).toMatchObject({ success: false });
    expect(stored('metadata')?.error_message).toMatch(/metadata/);
    expect(target.hits('/ok')).toBe(1);
    expect(target.hits('/slow')).toBe(1);
    expect(target.hits('/fail')).toBe(1);

    await expect.poll(() => vigil.state.heartbeats.length, WAIT).toBeGreaterThan(0);
    expect(vigil.state.heartbeats[0]).toEqual({
      version: '0.1.0',
      authorization: `Bearer ${TEST_LOCATION_KEY}`,
    });
    expect(vigil.state.unauthorized).toBe(0);
    for (const lease of vigil.state.leases) {
      expect(lease.max).toBeLessThanOrEqual(10);
      expect(lease.wait_seconds).toBeLessThanOrEqual(20);
    }
    await expect.poll(() => agent.log('connected to Vigil'), WAIT).toMatchObject({ location: 'office' });
    // The key is in no log line.
    expect(agent.logs.map((l) => JSON.stringify(l)).join('\n')).not.toContain(TEST_LOCATION_KEY);

    // Its own /metrics, scrapeable.
    await expect.poll(() => agent.log('metrics served'), WAIT).toBeTruthy();
    const metricsUrl = String(agent.log('metrics served')?.metrics_url);
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const text = await (await fetch(metricsUrl)).text();
    expect(text).toContain('vigil_agent_jobs_leased_total 7');
    expect(text).toContain('vigil_agent_jobs_probed_total{check_type="http",result="up"} 1');
    expect(text).toContain('vigil_agent_jobs_probed_total{check_type="http",result="degraded"} 1');
    expect(text).toContain('vigil_agent_jobs_probed_total{check_type="tcp",result="down"} 1');
    expect(text).toContain('vigil_agent_jobs_probed_total{check_type="unknown",result="unprobed"} 1');
    expect(text).toMatch(/vigil_agent_results_posted_total\{status="recorded"\} 7/);
    expect(text).toContain('vigil_agent_connected 1');
    expect(text).toMatch(/vigil_agent_probe_lag_seconds_count 6/);
    expect(text).toContain('vigil_agent_info{version="0.1.0"} 1');
    if (existsSync(PROMTOOL)) {
      const checked = await promtoolCheck(text);
      expect(checked.output).toBe('');
      expect(checked.code).toBe(0);
    }
  });

  // A located browser check's leg at an agent: Chromium on the agent's host, the guard on every request.
  it('runs a browser check in Chromium on this host: each step, and the secret in no result', async () => {
    const { vigil } = await processes.standInAndTarget();
    const site = await startBrowserSite();
    processes.afterTest(site.close);
    const steps = (password: string) => [
      { action: 'goto', url: `${site.origin}/login` },
      { action: 'fill', selector: '#user', value: 'ada' },
      { action: 'fill', selector: '#password', value: password },
      { action: 'click', selector: '#go' },
      { action: 'wait_for', url: '/account' },
    ];
    const variables = { password: { value: SITE_PASSWORD, secret: true } };
    vigil.enqueue(
      job('login', {
        check_type: 'browser',
        timeout_ms: 30_000,
        variables,
        steps: steps('{{variables.password}}'),
      }),
      job('wrong', { check_type: 'browser', timeout_ms: 30_000, steps: steps('wrong') }),
    );

    startAgent(['--url', vigil.url, '--key-file', keyFile(), '--browser-runs', '1']);

    await expect.poll(() => vigil.state.stored.size, { ...WAIT, timeout: 90_000 }).toBe(2);
    const stored = (id: string) => vigil.state.stored.get(resultKey({ job_id: id, slot: SLOT }))?.result;
    expect(stored('login')).toMatchObject({ success: true, error_message: '' });
    expect(stored('wrong')).toMatchObject({ success: false });
    expect(stored('wrong')?.error_message).toMatch(/^step 5 \(wait_for\): /);
    expect(site.requests).toContain('GET /account');
    expect(JSON.stringify([...vigil.state.stored.values()])).not.toContain(SITE_PASSWORD);
  }, 120_000);

  it('refuses private and loopback targets with --public-only', async () => {
    const { vigil, target } = await processes.standInAndTarget();
    vigil.enqueue(job('loopback', { check_type: 'http', target_url: target.url('/ok') }));

    startAgent(['--url', vigil.url, '--key-file', keyFile(), '--public-only']);

    await expect.poll(() => vigil.state.stored.size, WAIT).toBe(1);
    const [entry] = vigil.state.stored.values();
    expect(entry?.result).toMatchObject({ success: false });
    expect(entry?.result.error_message).toMatch(/loopback/);
    expect(target.hits('/ok')).toBe(0);
  });

  it('keeps asking with a refused key ($VIGIL_LOCATION_KEY), says so, and probes nothing', async () => {
    const { vigil, target } = await processes.standInAndTarget();
    vigil.enqueue(job('never', { check_type: 'http', target_url: target.url('/ok') }));
    const revoked = 'vlk_Revoked0Key0Revoked0Key0Revoked0Key000';

    const agent = startAgent(['--url', vigil.url, '--max-backoff', '1'], { VIGIL_LOCATION_KEY: revoked });

    await expect
      .poll(
        () => agent.logs.filter((l) => l.msg === 'lease failed; asking again' && l.level === 'error').length,
        WAIT,
      )
      .toBeGreaterThanOrEqual(2);
    expect(String(agent.log('lease failed; asking again')?.reason)).toMatch(/answered 401 UNAUTHORIZED/);
    expect(vigil.state.leased).toEqual([]);
    expect(target.hits('/ok')).toBe(0);
    expect(agent.logs.map((l) => JSON.stringify(l)).join('\n')).not.toContain(revoked);
  });

  it('answers --help, and refuses a key file without a location key with status 2, never echoing it', async () => {
    const help = startAgent(['--help']);
    expect(await help.exited).toBe(0);
    expect(help.logs[0]?.msg).toMatch(/^Usage: npm run vigil -- agent --url/);

    const apiKey = 'vgl_NotALocationKey0NotALocationKey000000';
    const refused = startAgent(['--url', 'https://vigil.example.com', '--key-file', keyFile(apiKey)]);

    expect(await refused.exited).toBe(2);
    expect(refused.stderr()).toMatch(/does not hold a location key \(vlk_…\)/);
    expect(refused.stderr()).not.toContain(apiKey);
  });
});
