import { runHttpProbe } from '../../probes/http-probe.ts';
import type { ProbeDeps, ProbeOutcome } from '../../probes/types.ts';
import { runBrowserProbe } from '../browser/browser-probe.ts';
import { runDnsProbe } from '../dns/dns-probe.ts';
import { runDomainProbe } from '../domain/domain-probe.ts';
import { runGrpcProbe } from '../grpc/grpc-probe.ts';
import { runIcmpProbe } from '../icmp/icmp-probe.ts';
import { runMultistepProbe } from '../multistep/multistep-probe.ts';
import type { CheckProbeJob, ProbedType } from '../registry.ts';
import { runTcpProbe } from '../tcp/tcp-probe.ts';
import { runTlsProbe } from '../tls/tls-probe.ts';

/** A probe: runs one job of its type and never throws (a failure is a failed outcome). */
type ProbeOf<T extends ProbedType> = (
  job: Extract<CheckProbeJob, { check_type: T }>,
  deps: ProbeDeps,
) => Promise<ProbeOutcome>;

/**
 * Every probed check type's probe, one line each, apart from the shapes (./registry.ts): only the
 * code that probes (lib/check-types/run-probe.ts) imports this, so the functions that never probe
 * carry no network client. A client that is heavy is loaded when its probe first runs (gRPC:
 * ./grpc/health-client.ts), so the functions that do probe do not load it at start either.
 */
export const CHECK_TYPE_PROBES = {
  http: runHttpProbe,
  tcp: runTcpProbe,
  tls: runTlsProbe,
  dns: runDnsProbe,
  icmp: runIcmpProbe,
  domain: runDomainProbe,
  grpc: runGrpcProbe,
  multistep: runMultistepProbe,
  browser: runBrowserProbe,
} satisfies { [T in ProbedType]: ProbeOf<T> };
