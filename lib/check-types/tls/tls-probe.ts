import { isIP } from 'node:net';
import { checkServerIdentity, connect, type PeerCertificate, rootCertificates } from 'node:tls';
import { type CancelSignal, withDeadline } from '../../egress/egress-deadline.ts';
import { certificateNames, hostnameMismatchMessage, tlsFailureMessage } from '../../egress/egress-errors.ts';
import { bareHost, resolveAllowed } from '../../egress/egress-guard.ts';
import { trustedCa, withTrustWarning } from '../../probes/check-trust.ts';
import { days, degraded, failed, failedOn, passed, startTimer } from '../../probes/outcome.ts';
import type { ProbeDeps, ProbeOutcome } from '../../probes/types.ts';
import type { TlsProbeJob } from './tls.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

interface Handshake {
  cert: PeerCertificate;
  /** The OpenSSL verify code (e.g. DEPTH_ZERO_SELF_SIGNED_CERT) when the chain did not verify. */
  chainError: string | undefined;
}

/**
 * Completes a TLS handshake and judges the certificate: chain trusted (system CAs plus
 * `deps.tlsCa`), not expired, matching `servername`, and not expiring within the threshold.
 */
export async function runTlsProbe(def: TlsProbeJob, deps: ProbeDeps): Promise<ProbeOutcome> {
  const elapsed = startTimer();
  const servername = bareHost(def.servername ?? def.host);
  const extra = trustedCa(deps.tlsCa, def.tls);
  const ca = extra?.length ? [...rootCertificates, ...extra] : undefined;
  let handshake: Handshake;
  try {
    handshake = await withDeadline(def.timeout_ms, async (signal) => {
      const [target] = await resolveAllowed(def.host, {
        allowPrivate: deps.allowPrivate,
        resolve: deps.resolve,
      });
      if (!target) throw new Error(`could not resolve host ${def.host}`);
      signal.throwIfAborted(); // the deadline may have passed during resolution
      return shakeHands({ address: target.address, port: def.port ?? 443, servername, ca }, signal);
    });
  } catch (err) {
    return failedOn(err, elapsed());
  }
  // skip_verify accepts any chain and name; the expiry, what a tls check watches, is still judged.
  const judged = def.tls?.skip_verify ? { ...handshake, chainError: undefined, anyName: true } : handshake;
  const outcome = judge(judged, servername, def.expiry_threshold_days ?? 14, deps.clock.now(), elapsed());
  return withTrustWarning(outcome, def.tls);
}

function judge(
  { cert, chainError, anyName }: Handshake & { anyName?: boolean },
  servername: string,
  thresholdDays: number,
  nowMs: number,
  latency: number,
): ProbeOutcome {
  const validTo = Date.parse(cert.valid_to);
  if (Number.isNaN(validTo)) return failed('server sent no usable certificate', latency);
  const daysLeft = Math.floor((validTo - nowMs) / DAY_MS);
  const details = { days_left: daysLeft };
  if (chainError === 'CERT_HAS_EXPIRED' || validTo <= nowMs) {
    const daysAgo = Math.max(1, Math.floor((nowMs - validTo) / DAY_MS));
    return failed(`certificate expired ${days(daysAgo)} ago`, latency, 0, {
      ...details,
      error_code: 'CERT_HAS_EXPIRED',
    });
  }
  if (chainError !== undefined) {
    const message = tlsFailureMessage(chainError) ?? 'certificate is not trusted';
    return failed(message, latency, 0, { ...details, error_code: chainError });
  }
  if (!anyName && checkServerIdentity(servername, cert) !== undefined) {
    return failed(hostnameMismatchMessage(certificateNames(cert)), latency, 0, {
      ...details,
      error_code: 'ERR_TLS_CERT_ALTNAME_INVALID',
    });
  }
  // Inside the threshold the certificate still works: degraded, not down (DECISIONS.md).
  if (daysLeft < thresholdDays) {
    return degraded(
      `certificate expires in ${days(daysLeft)} (threshold ${thresholdDays})`,
      latency,
      0,
      details,
    );
  }
  return passed(latency, 0, details);
}

interface Target {
  address: string;
  port: number;
  servername: string;
  ca: string[] | undefined;
}

function shakeHands(target: Target, signal: CancelSignal): Promise<Handshake> {
  return new Promise<Handshake>((resolve, reject) => {
    const socket = connect({
      host: target.address,
      port: target.port,
      // SNI carries names only (RFC 6066); an IP servername is still checked against the IP SANs.
      servername: isIP(target.servername) ? undefined : target.servername,
      ca: target.ca,
      // Judged after the handshake, so each failure gets its own message.
      rejectUnauthorized: false,
      checkServerIdentity: () => undefined,
    });
    const onAbort = () => socket.destroy(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('secureConnect', () => {
      signal.removeEventListener('abort', onAbort);
      const cert = socket.getPeerCertificate();
      // Typed as Error, but Node stores the verify code (or message) string here.
      const raw: unknown = socket.authorizationError;
      const chainError =
        raw === undefined || raw === null ? undefined : String(raw instanceof Error ? raw.message : raw);
      socket.destroy();
      resolve({ cert, chainError: socket.authorized ? undefined : chainError });
    });
    socket.once('error', (err) => {
      signal.removeEventListener('abort', onAbort);
      reject(err);
    });
  });
}
