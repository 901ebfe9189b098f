import { domainToASCII } from 'node:url';
import { httpRequest } from '../../egress/egress.ts';
import { http1Request } from '../../egress/http1-client.ts';
import { days, degraded, describeError, failed, passed, startTimer } from '../../probes/outcome.ts';
import type { ProbeDeps, ProbeOutcome } from '../../probes/types.ts';
import { rdapServerFor, shippedBootstrap } from '../rdap-bootstrap.ts';
import type { DomainProbeJob } from './domain.ts';
import { cachedExpiry, rememberExpiry } from './expiry-cache.ts';
import { readExpiry } from './rdap-response.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** RDAP domain answers carry notices and entities; a longer one is cut and fails to parse. */
const MAX_RDAP_BYTES = 512 * 1024;

/** Asks the registry's RDAP server (the IANA bootstrap names it) when the registration expires. */
export async function runDomainProbe(job: DomainProbeJob, deps: ProbeDeps): Promise<ProbeOutcome> {
  const elapsed = startTimer();
  const name = domainToASCII(job.domain).toLowerCase();
  const server = rdapServerFor(name, deps.rdapBootstrap ?? shippedBootstrap);
  if (!server) {
    const tld = name.slice(name.lastIndexOf('.') + 1);
    return failed(`no RDAP server is known for .${tld} (IANA bootstrap)`, elapsed());
  }
  const now = deps.clock.now();
  let expiry = cachedExpiry(server, name, now);
  if (expiry === undefined) {
    const fetched = await fetchExpiry(server, name, job.timeout_ms, deps);
    if (typeof fetched === 'string') return failed(fetched, elapsed(), 0, { rdap_server: server });
    expiry = fetched;
    rememberExpiry(server, name, expiry, now);
  }
  return judge(expiry, now, job.expiry_threshold_days ?? 30, server, elapsed());
}

/** The expiry (epoch ms) the RDAP server answers, or why there is none. */
async function fetchExpiry(
  server: string,
  name: string,
  timeoutMs: number,
  deps: ProbeDeps,
): Promise<number | string> {
  let response: Awaited<ReturnType<typeof httpRequest>>;
  try {
    response = await httpRequest({
      url: `${server}domain/${encodeURIComponent(name)}`,
      headers: { accept: 'application/rdap+json, application/json' },
      timeoutMs,
      maxRedirects: 3,
      maxBodyBytes: MAX_RDAP_BYTES,
      allowPrivate: deps.allowPrivate,
      resolve: deps.resolve,
      ca: deps.tlsCa,
      transport: deps.transport ?? http1Request,
    });
  } catch (err) {
    return `RDAP server ${new URL(server).host}: ${describeError(err)}`;
  }
  if (response.status === 404) return `${name} is not registered (the RDAP server answered 404)`;
  if (response.status === 429)
    return 'the RDAP server is rate-limiting requests (HTTP 429); try a longer interval';
  if (response.status !== 200) return `the RDAP server answered HTTP ${response.status}`;
  return readExpiry(response.bodyPrefix, MAX_RDAP_BYTES);
}

function judge(
  expiry: number,
  now: number,
  thresholdDays: number,
  server: string,
  latency: number,
): ProbeOutcome {
  const expiresAt = new Date(expiry).toISOString();
  const daysLeft = Math.floor((expiry - now) / DAY_MS);
  const details = { days_left: daysLeft, expires_at: expiresAt, rdap_server: server };
  const date = expiresAt.slice(0, 10);
  if (expiry <= now) {
    const ago = Math.max(1, Math.floor((now - expiry) / DAY_MS));
    return failed(`registration expired ${days(ago)} ago (${date})`, latency, 0, details);
  }
  // Inside the threshold the domain still resolves: degraded, not down (as certificates).
  if (daysLeft < thresholdDays) {
    return degraded(
      `registration expires in ${days(daysLeft)} (${date}; threshold ${thresholdDays})`,
      latency,
      0,
      details,
    );
  }
  return passed(latency, 0, details);
}
