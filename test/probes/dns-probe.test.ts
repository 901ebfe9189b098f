import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../lib/platform/clock.ts';
import { runDnsProbe } from '../../lib/probes/dns-probe.ts';
import type { DnsProbeDefinition, DnsRecordType, ProbeDeps } from '../../lib/probes/types.ts';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts';

let dns: TestDnsServer;

beforeAll(async () => {
  dns = await startDnsServer(
    {
      'svc.test': [
        { type: 'A', address: '10.0.0.2' },
        { type: 'MX', priority: 10, exchange: 'mail.svc.test' },
        { type: 'MX', priority: 20, exchange: 'backup.svc.test' },
        { type: 'TXT', chunks: ['v=spf1 ', 'include:_spf.test ~all'] },
        { type: 'TXT', chunks: ['Token=AbC'] },
        { type: 'NS', name: 'ns1.svc.test' },
        { type: 'CAA', flags: 0, tag: 'issue', value: 'letsencrypt.org' },
      ],
      'v6.test': [{ type: 'AAAA', address: '2001:db8::1' }],
      'www.svc.test': [{ type: 'CNAME', name: 'svc.test' }],
      '_sip._tcp.svc.test': [{ type: 'SRV', priority: 10, weight: 5, port: 5060, target: 'sip.svc.test' }],
    },
    { silent: ['slow.test'] },
  );
});

afterAll(async () => {
  await dns.close();
});

const deps: ProbeDeps = { clock: systemClock, allowPrivate: true };
const check = (hostname: string, record_type: DnsRecordType, extra: Partial<DnsProbeDefinition> = {}) =>
  runDnsProbe(
    { check_type: 'dns', hostname, record_type, nameserver: dns.nameserver, timeout_ms: 2000, ...extra },
    deps,
  );

describe('dns probe', () => {
  it('passes an A lookup and records the answers', async () => {
    const outcome = await check('svc.test', 'A');
    expect(outcome).toMatchObject({
      success: true,
      status_code: 0,
      error_message: '',
      details: { answers: ['10.0.0.2'] },
    });
    expect(dns.queries).toContain('svc.test A');
  });

  it('passes when the expected value is among the answers', async () => {
    expect(await check('svc.test', 'A', { expected_value: '10.0.0.2' })).toMatchObject({ success: true });
  });

  it('fails when the expected value is not among the answers', async () => {
    const outcome = await check('svc.test', 'A', { expected_value: '10.0.0.1' });
    expect(outcome).toMatchObject({
      success: false,
      error_message: 'expected value 10.0.0.1 not in [10.0.0.2]',
    });
  });

  it('fails a name without records of the asked type', async () => {
    const outcome = await check('svc.test', 'AAAA');
    expect(outcome).toMatchObject({ success: false, error_message: 'no AAAA record' });
  });

  it('fails a name that does not exist', async () => {
    const outcome = await check('missing.test', 'A');
    expect(outcome).toMatchObject({ success: false, error_message: 'no such domain' });
  });

  it('matches AAAA answers by address value', async () => {
    const outcome = await check('v6.test', 'AAAA', { expected_value: '2001:DB8:0:0:0:0:0:1' });
    expect(outcome).toMatchObject({ success: true, details: { answers: ['2001:db8::1'] } });
  });

  it('matches CNAME answers without case or trailing dot', async () => {
    expect(await check('www.svc.test', 'CNAME', { expected_value: 'SVC.test.' })).toMatchObject({
      success: true,
      details: { answers: ['svc.test'] },
    });
  });

  it('matches MX answers as "priority exchange" or the exchange alone', async () => {
    const both = await check('svc.test', 'MX', { expected_value: '10 mail.svc.test' });
    expect(both).toMatchObject({ success: true });
    expect(both.details?.answers?.slice().sort()).toEqual(['10 mail.svc.test', '20 backup.svc.test']);
    expect(await check('svc.test', 'MX', { expected_value: 'backup.svc.test' })).toMatchObject({
      success: true,
    });
    const wrong = await check('svc.test', 'MX', { expected_value: '30 mail.svc.test' });
    expect(wrong.error_message).toMatch(/^expected value 30 mail\.svc\.test not in \[/);
  });

  it('joins TXT chunks and matches them exactly', async () => {
    const spf = await check('svc.test', 'TXT', { expected_value: 'v=spf1 include:_spf.test ~all' });
    expect(spf).toMatchObject({ success: true });
    expect(spf.details?.answers).toContain('Token=AbC');
    expect(await check('svc.test', 'TXT', { expected_value: 'token=abc' })).toMatchObject({ success: false });
  });

  it('answers NS lookups', async () => {
    expect(await check('svc.test', 'NS', { expected_value: 'ns1.svc.test' })).toMatchObject({
      success: true,
      details: { answers: ['ns1.svc.test'] },
    });
  });

  it('answers SRV lookups as "priority weight port name"', async () => {
    const outcome = await check('_sip._tcp.svc.test', 'SRV', { expected_value: '10 5 5060 sip.svc.test' });
    expect(outcome).toMatchObject({ success: true, details: { answers: ['10 5 5060 sip.svc.test'] } });
  });

  it('answers CAA lookups as "flags tag value"', async () => {
    const outcome = await check('svc.test', 'CAA', { expected_value: '0 issue letsencrypt.org' });
    expect(outcome).toMatchObject({ success: true, details: { answers: ['0 issue letsencrypt.org'] } });
  });

  it('times out when the nameserver never answers', async () => {
    const outcome = await check('slow.test', 'A', { timeout_ms: 200 });
    expect(outcome).toMatchObject({ success: false, error_message: 'timed out after 200 ms' });
  });

  it('refuses a loopback nameserver when private targets are off', async () => {
    const before = dns.queries.length;
    const outcome = await runDnsProbe(
      {
        check_type: 'dns',
        hostname: 'svc.test',
        record_type: 'A',
        nameserver: dns.nameserver,
        timeout_ms: 2000,
      },
      { ...deps, allowPrivate: false },
    );
    expect(outcome.error_message).toBe('destination 127.0.0.1 is a loopback address');
    expect(dns.queries.length).toBe(before);
  });

  it('resolves a named nameserver through the guard', async () => {
    const resolve = async () => [{ address: '127.0.0.1', family: 4 as const }];
    const outcome = await runDnsProbe(
      {
        check_type: 'dns',
        hostname: 'svc.test',
        record_type: 'A',
        nameserver: `ns.local.test:${dns.port}`,
        timeout_ms: 2000,
      },
      { ...deps, resolve },
    );
    expect(outcome).toMatchObject({ success: true });
  });
});
