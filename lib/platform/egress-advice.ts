import { isIP } from 'node:net';
import type { Runtime } from './config.ts';
import { CleartextDeniedError, type ConnectionError, type EgressDeniedError } from './egress-errors.ts';
import { describeClass } from './ip-rules.ts';

/**
 * What a user reads when channels and actions may not reach a destination, and what lifts it: a
 * refusal the allow-list would lift names VIGIL_EGRESS_ALLOW (locally), or the deployment setting
 * that sets it (cloud: `cdk deploy -c vigil:egressAllow=...`, infra/app.ts), with an example
 * range for the very address refused. Used at create (400 at the URL field) and at send (the
 * delivery log, a test send, an execution), so both say the same.
 */

/** The one-address range for an example: `127.0.0.1/32`, `fd00::5/128`. */
function singleRange(address: string): string {
  return isIP(address) === 6 ? `${address}/128` : `${address}/32`;
}

/** The setting that allows ranges, in the runtime's own terms, with `range` as the example when given. */
export function allowListSetting(runtime: Runtime, range?: string): string {
  if (runtime === 'cloud') {
    const example = range ? ` (e.g. npx cdk deploy -c vigil:egressAllow=${range})` : '';
    return `the deployment setting vigil:egressAllow, which sets VIGIL_EGRESS_ALLOW${example}`;
  }
  return range ? `VIGIL_EGRESS_ALLOW (e.g. VIGIL_EGRESS_ALLOW=${range})` : 'VIGIL_EGRESS_ALLOW';
}

/** "127.0.0.1" or "receiver.lan resolves to 192.168.1.20,": the subject of the sentence. */
function subject(err: EgressDeniedError, address: string): string {
  return err.host !== '' && err.host !== address ? `${err.host} resolves to ${address},` : address;
}

/**
 * The refusal as one sentence a user can act on, e.g. "127.0.0.1 is a loopback address; Vigil
 * does not send to private or loopback addresses unless they are allowed with VIGIL_EGRESS_ALLOW
 * (e.g. VIGIL_EGRESS_ALLOW=127.0.0.1/32)". Cloud metadata addresses are never allowed, so that
 * refusal names no setting.
 */
export function egressRefusal(err: EgressDeniedError, runtime: Runtime): string {
  const address = err.address;
  const cls = err.addressClass;
  if (address === undefined || cls === undefined) return err.message;
  // "127.0.0.1 is a loopback address" or "receiver.lan resolves to 192.168.1.20, a private address".
  const what = `${subject(err, address)}${err.host === address || err.host === '' ? ' is' : ''} ${describeClass(cls)}`;
  if (err instanceof CleartextDeniedError)
    return `${what}; use an https:// URL: http:// is accepted only for a receiver in a range allowed with ${allowListSetting(runtime)}, such as one on your own machine or LAN`;
  if (cls === 'metadata')
    return `${what}, which hands out cloud credentials; Vigil never sends to it, whatever VIGIL_EGRESS_ALLOW lists`;
  // "a reserved address" -> "reserved addresses"; private and loopback are named together, as users meet them.
  const kind =
    cls === 'private' || cls === 'loopback'
      ? 'private or loopback addresses'
      : `${describeClass(cls).replace(/^an? /, '')}es`;
  return `${what}; Vigil does not send to ${kind} unless they are allowed with ${allowListSetting(runtime, singleRange(address))}`;
}

/** Verify codes meaning "issued by a CA this process does not trust": a private CA or a self-signed certificate. */
const UNTRUSTED_ISSUER = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
]);

/**
 * The TLS failure with what to do when the receiver's certificate comes from the user's own CA:
 * Node reads NODE_EXTRA_CA_CERTS once, at process start, so Vigil must be restarted with it.
 * Other errors: their message unchanged.
 */
export function connectionFailureText(err: ConnectionError): string {
  if (!UNTRUSTED_ISSUER.has(err.code)) return err.message;
  return `${err.message}; if the receiver uses a self-signed certificate or one from your own CA, start Vigil with NODE_EXTRA_CA_CERTS set to that CA's certificate file (PEM)`;
}
