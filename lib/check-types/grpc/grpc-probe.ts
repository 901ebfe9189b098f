import type * as grpc from '@grpc/grpc-js';
import { secretRedactor } from '../../domain/redaction.ts';
import { withDeadline } from '../../egress/egress-deadline.ts';
import { resolveAllowed } from '../../egress/egress-guard.ts';
import { withTrustWarning } from '../../probes/check-trust.ts';
import { describeError, failed, passed, startTimer } from '../../probes/outcome.ts';
import type { ProbeDeps, ProbeOutcome } from '../../probes/types.ts';
import type { GrpcProbeJob } from './grpc.ts';
import { checkHealth, grpcStatus } from './health-client.ts';

/** Asks the server's grpc.health.v1 Health/Check about `service` at the address the SSRF guard checked. */
export async function runGrpcProbe(job: GrpcProbeJob, deps: ProbeDeps): Promise<ProbeOutcome> {
  const elapsed = startTimer();
  const secrets = Object.values(job.metadata ?? {});
  // A server's error text may echo the metadata it got: hidden before it is stored.
  const redact = secrets.length > 0 ? secretRedactor(secrets) : (text: string) => text;
  try {
    const status = await withDeadline(job.timeout_ms, async (signal) => {
      const guard = { allowPrivate: deps.allowPrivate, resolve: deps.resolve };
      const [target] = await resolveAllowed(job.host, guard);
      if (!target) throw new Error(`could not resolve host ${job.host}`);
      signal.throwIfAborted(); // the deadline may have passed during resolution
      return checkHealth({
        address: target.address,
        family: target.family,
        port: job.port,
        host: job.host,
        service: job.service ?? '',
        useTls: job.use_tls === true,
        trust: job.tls,
        runtimeCa: deps.tlsCa,
        metadata: job.metadata ?? {},
        deadlineMs: job.timeout_ms,
      });
    });
    const latency = elapsed();
    // Over TLS with skip_verify, every answer says the certificate was not verified.
    const trust = job.use_tls === true ? job.tls : undefined;
    if (status.status === 'SERVING')
      return withTrustWarning(passed(latency, 0, { grpc_status: 'SERVING' }), trust);
    const down = failed(`health status ${status.status}`, latency, 0, { grpc_status: status.status });
    return withTrustWarning(down, trust);
  } catch (err) {
    const latency = elapsed();
    // A ServiceError comes from grpc-js, so it is loaded by then; any other failure needs no codes.
    const codes = isServiceError(err) ? await grpcStatus() : undefined;
    const { message, status } = describeGrpcError(err, codes, job.service ?? '', job.timeout_ms);
    return failed(redact(message), latency, 0, status ? { grpc_status: status } : undefined);
  }
}

function isServiceError(err: unknown): err is grpc.ServiceError {
  return (
    err instanceof Error && typeof (err as Partial<grpc.ServiceError>).code === 'number' && 'details' in err
  );
}

/** A user's sentence for a failed call; `status` when the failure stands for a health status. */
function describeGrpcError(
  err: unknown,
  codes: typeof grpc.status | undefined,
  service: string,
  timeoutMs: number,
): { message: string; status?: string } {
  if (!isServiceError(err) || !codes) return { message: describeError(err) };
  const details = err.details.slice(0, 300);
  switch (err.code) {
    case codes.NOT_FOUND:
      // The health service's answer for a service it does not know (health-checking.md).
      return {
        message: `health status SERVICE_UNKNOWN: the server does not know service "${service}"`,
        status: 'SERVICE_UNKNOWN',
      };
    case codes.UNIMPLEMENTED:
      return { message: 'the server does not implement the gRPC health service (grpc.health.v1.Health)' };
    case codes.DEADLINE_EXCEEDED:
      return { message: `timed out after ${timeoutMs} ms` };
    case codes.UNAVAILABLE:
      if (/ECONNREFUSED/.test(details)) return { message: 'connection refused' };
      return { message: `could not connect: ${lastError(details)}` };
    default:
      return { message: `gRPC ${codes[err.code] ?? err.code}: ${details}` };
  }
}

/**
 * The cause inside grpc-js's "No connection established. Last error: Error [CODE]: text. Resolution
 * note: …": the text alone ("self-signed certificate"), without Node's hints.
 */
function lastError(details: string): string {
  const last = /Last error: (?:\w*Error(?: \[\w+\])?: )?(.*)$/s.exec(details)?.[1] ?? details;
  const cut = (text: string, at: string) => text.split(at)[0] ?? text;
  return cut(cut(last, '; if the root CA'), ' Resolution note:').trim().replace(/\.$/, '');
}
