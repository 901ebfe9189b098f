import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DnsProbeJob, DnsRecordType } from '../../lib/check-types/dns/dns.ts';
import { runDnsProbe } from '../../lib/check-types/dns/dns-probe.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import type { ProbeDeps } from '../../lib/probes/types.ts';
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
      'internal.test': [
        { type: 'A', address: '10.1.2.3' },
        { type: 'A', address: '93.184.216.34' },
        { type: 'A', address: '169.254.169.254' },
        { type: 'AAAA', address: 'fd00::7' },
        { type: 'AAAA', address: '2606:4700::1111' },
        { type: 'TXT', chunks: ['v=spf1 ip4:10.0.0.0/8 ip4:93.184.216.34 -all'] },
        { type: 'TXT', chunks: ['db=192.168.1.5;metadata=169.254.169.254;v6=[fe80::1]'] },
      ],
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
const check = (hostname: string, record_type: DnsRecordType, extra: Partial<DnsProbeJob> = {}) =>
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

describe('dns probe with private targets denied', () => {
  // The resolver of checks without a nameserver is the platform's: here a loopback server
  // standing in for a VPC resolver that answers private zones.
  const denied: ProbeDeps = { clock: systemClock, allowPrivate: false, dnsServers: [] };
  const lookup = (record_type: DnsRecordType, extra: Partial<DnsProbeJob> = {}) =>
    runDnsProbe(
      { check_type: 'dns', hostname: 'internal.test', record_type, timeout_ms: 2000, ...extra },
      { ...denied, dnsServers: [dns.nameserver] },
    );
  const leaks = ['10.1.2.3', '169.254.169.254', '10.0.0.0', '192.168.1.5', 'fd00::7', 'fe80::1'];

  it('hides private, reserved and metadata addresses among the answers and shows public ones', async () => {
    const a = await lookup('A');
    expect(a).toMatchObject({ success: true, error_message: '' });
    expect(a.details?.answers?.slice().sort()).toEqual([
      '(private address)',
      '(private address)',
      '93.184.216.34',
    ]);
    const aaaa = await lookup('AAAA');
    expect(aaaa.details?.answers?.slice().sort()).toEqual(['(private address)', '2606:4700::1111']);
    for (const outcome of [a, aaaa])
      for (const leak of leaks) expect(JSON.stringify(outcome)).not.toContain(leak);
  });

  it('hides the private addresses a TXT record names, keeping the rest of its text', async () => {
    const txt = await lookup('TXT');
    expect(txt.details?.answers?.slice().sort()).toEqual([
      'db=(private address);metadata=(private address);v6=[(private address)]',
      'v=spf1 ip4:(private address)/8 ip4:93.184.216.34 -all',
    ]);
    for (const leak of leaks) expect(JSON.stringify(txt)).not.toContain(leak);
  });

  it('never matches an expected value against a hidden answer, nor shows the answers in the message', async () => {
    const probe = await lookup('A', { expected_value: '10.1.2.3' });
    expect(probe.success).toBe(false);
    expect(probe.error_message).toMatch(/^expected value 10\.1\.2\.3 not in \[/);
    expect(probe.error_message.replace('expected value 10.1.2.3', '')).not.toMatch(/10\.1\.2\.3|169\.254/);
    const txt = await lookup('TXT', { expected_value: 'v=spf1 ip4:10.0.0.0/8 ip4:93.184.216.34 -all' });
    expect(txt.success).toBe(false);
    expect(await lookup('A', { expected_value: '93.184.216.34' })).toMatchObject({ success: true });
  });

  it('shows every answer when private targets are allowed', async () => {
    const a = await runDnsProbe(
      { check_type: 'dns', hostname: 'internal.test', record_type: 'A', timeout_ms: 2000 },
      { ...deps, dnsServers: [dns.nameserver] },
    );
    expect(a.details?.answers?.slice().sort()).toEqual(['10.1.2.3', '169.254.169.254', '93.184.216.34']);
  });

  it('does not say what a named nameserver that is refused resolved to', async () => {
    const resolve = async () => [{ address: '10.9.8.7', family: 4 as const }];
    const outcome = await runDnsProbe(
      {
        check_type: 'dns',
        hostname: 'internal.test',
        record_type: 'A',
        nameserver: 'ns.corp.test',
        timeout_ms: 2000,
      },
      { ...denied, resolve },
    );
    expect(outcome.error_message).toBe('nameserver ns.corp.test resolves to a private or reserved address');
  });
});
