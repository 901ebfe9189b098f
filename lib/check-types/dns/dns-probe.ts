import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { withDeadline } from '../../egress/egress-deadline.ts';
import { EgressDeniedError, EgressError, TimeoutError } from '../../egress/egress-errors.ts';
import { resolveAllowed } from '../../egress/egress-guard.ts';
import { anyAnswerMatches, queryAnswers, withoutPrivateAddresses } from '../../probes/dns-answers.ts';
import { describeError, failed, passed, startTimer } from '../../probes/outcome.ts';
import type { ProbeDeps, ProbeOutcome } from '../../probes/types.ts';
import type { DnsProbeJob, DnsRecordType } from './dns.ts';

/**
 * Resolves one record type (at `nameserver` when given) and checks the expected value, if any.
 * With private targets denied, private and reserved addresses in the answers are hidden, in the
 * results and in the matching alike (so expected_value cannot probe for them either).
 */
export async function runDnsProbe(def: DnsProbeJob, deps: ProbeDeps): Promise<ProbeOutcome> {
  const elapsed = startTimer();
  try {
    const found = await withDeadline(def.timeout_ms, async (signal) => {
      const resolver = new Resolver({ timeout: def.timeout_ms, tries: 1 });
      if (def.nameserver !== undefined) resolver.setServers([await nameserverAddress(def.nameserver, deps)]);
      else if (deps.dnsServers) resolver.setServers(deps.dnsServers);
      signal.throwIfAborted(); // the deadline may have passed while resolving the nameserver
      signal.addEventListener('abort', () => resolver.cancel(), { once: true });
      return queryAnswers(resolver, def.hostname, def.record_type);
    });
    const latency = elapsed();
    const answers = deps.allowPrivate ? found : found.map(withoutPrivateAddresses);
    const texts = answers.map((a) => a.text);
    const details = { answers: texts };
    if (texts.length === 0) return failed(`no ${def.record_type} record`, latency, 0, details);
    const expected = def.expected_value;
    if (expected !== undefined && expected !== '' && !anyAnswerMatches(answers, expected, def.record_type)) {
      return failed(`expected value ${expected} not in [${texts.join(', ')}]`, latency, 0, details);
    }
    return passed(latency, 0, details);
  } catch (err) {
    return failed(dnsErrorMessage(err, def.record_type, def.timeout_ms), elapsed());
  }
}

/**
 * "host", "host:port", "[v6]:port" or a bare IPv6 address, to the "ip:port" form setServers
 * takes. A named nameserver is resolved through the SSRF guard like any other target.
 */
async function nameserverAddress(nameserver: string, deps: ProbeDeps): Promise<string> {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(nameserver);
  const hostPort = /^([^:]+)(?::(\d+))?$/.exec(nameserver);
  const host = bracketed?.[1] ?? hostPort?.[1] ?? nameserver;
  const port = Number(bracketed?.[2] ?? hostPort?.[2] ?? 53);
  const [target] = await resolveAllowed(host, {
    allowPrivate: deps.allowPrivate,
    resolve: deps.resolve,
  }).catch((err: unknown) => {
    // A denied name must not read out what it resolved to (an internal answer); a literal is the user's own.
    if (err instanceof EgressDeniedError && isIP(host) === 0)
      throw new EgressDeniedError(
        `nameserver ${host} resolves to a private or reserved address`,
        host,
        err.address,
      );
    throw err;
  });
  if (!target) throw new Error(`could not resolve nameserver ${host}`);
  return target.family === 6 ? `[${target.address}]:${port}` : `${target.address}:${port}`;
}

function dnsErrorMessage(err: unknown, type: DnsRecordType, timeoutMs: number): string {
  if (err instanceof EgressError) return err.message; // the deadline, or the guard on the nameserver
  const code = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : '';
  switch (code) {
    case 'ENOTFOUND':
      return 'no such domain';
    case 'ENODATA':
      return `no ${type} record`;
    case 'ETIMEOUT':
    case 'ECANCELLED':
      return new TimeoutError(timeoutMs).message;
    case 'ESERVFAIL':
      return 'nameserver failure (SERVFAIL)';
    case 'EREFUSED':
      return 'query refused by nameserver';
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'EBADRESP':
    case 'EFORMERR':
      return 'bad response from nameserver';
    default:
      return describeError(err);
  }
}
