import { expectedStatusesText, statusAccepted } from '../domain/assertions.ts';
import { httpRequest } from '../egress/egress.ts';
import { http1Request } from '../egress/http1-client.ts';
import { evaluateAssertions } from './assertions.ts';
import { trustedCa, withTrustWarning } from './check-trust.ts';
import { failed, failedOn, passed, startTimer } from './outcome.ts';
import { loadPatternEngine } from './pattern-engine.ts';
import type { HttpProbeDefinition, ProbeDeps, ProbeOutcome } from './types.ts';

/** How much of the body `body_contains` and assertions search; the rest is never read. */
const BODY_CONTAINS_WINDOW_BYTES = 64 * 1024;

/** Requests the target on a fresh connection and checks the status and, if asked, a body substring and the assertions. */
export async function runHttpProbe(def: HttpProbeDefinition, deps: ProbeDeps): Promise<ProbeOutcome> {
  return withTrustWarning(await probeHttp(def, deps), def.tls);
}

async function probeHttp(def: HttpProbeDefinition, deps: ProbeDeps): Promise<ProbeOutcome> {
  const elapsed = startTimer();
  const expected = def.expected_statuses ?? [def.expected_status ?? 200];
  const needle = def.body_contains ?? '';
  const assertions = def.assertions ?? [];
  const readsBody = needle !== '' || assertions.some((a) => a.source === 'body' || a.source === 'json');
  try {
    const res = await httpRequest({
      url: def.target_url,
      method: def.method ?? 'GET',
      headers: def.headers,
      body: def.body,
      timeoutMs: def.timeout_ms,
      maxBodyBytes: readsBody ? BODY_CONTAINS_WINDOW_BYTES : 0,
      allowPrivate: deps.allowPrivate,
      resolve: deps.resolve,
      ca: trustedCa(deps.tlsCa, def.tls),
      ...(def.tls?.skip_verify ? { rejectUnauthorized: false } : {}),
      transport: deps.transport ?? http1Request,
    });
    const latency = elapsed();
    if (!statusAccepted(expected, res.status))
      return failed(
        `expected status ${expectedStatusesText(expected)}, got ${res.status}`,
        latency,
        res.status,
      );
    if (needle !== '' && !res.bodyPrefix.toString('utf8').includes(needle)) {
      return failed(`body does not contain ${JSON.stringify(needle)}`, latency, res.status);
    }
    if (assertions.length > 0) {
      // RE2 is loaded for the checks that match a pattern, and only then (./pattern-engine.ts).
      if (assertions.some((a) => a.op === 'matches')) await loadPatternEngine();
      const failure = evaluateAssertions(assertions, {
        status: res.status,
        headers: res.headers,
        body: readsBody ? res.bodyPrefix.toString('utf8') : '',
        latencyMs: latency,
      });
      if (failure !== undefined) return failed(failure, latency, res.status);
    }
    return passed(latency, res.status);
  } catch (err) {
    return failedOn(err, elapsed());
  }
}
