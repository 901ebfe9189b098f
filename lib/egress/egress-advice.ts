import { isIP } from 'node:net';
import type { Runtime } from '../platform/config.ts';
import { CleartextDeniedError, type ConnectionError, type EgressDeniedError } from './egress-errors.ts';
import { type AddressClass, describeClass } from './ip-rules.ts';

/**
 * What a user reads when channels and actions may not reach a destination, and what lifts it: a
 * refusal the allow-list would lift names VIGIL_EGRESS_ALLOW, with an example range for the very
 * address refused, set as the variable locally or, in the cloud, as the CDK context that sets it
 * (`cdk deploy -c vigil:egressAllow=...`, infra/app.ts). Used at create (400 at the URL field) and at send (the
 * delivery log, a test send, an execution), so both say the same.
 */

/** The one-address range for an example: `127.0.0.1/32`, `fd00::5/128`. */
function singleRange(address: string): string {
  return isIP(address) === 6 ? `${address}/128` : `${address}/32`;
}

/** How the operator allows `range`: the variable locally; in the cloud, the CDK context that sets it. */
function allowListExample(range: string, runtime: Runtime): string {
  return runtime === 'cloud'
    ? `deploy with -c vigil:egressAllow=${range}`
    : `e.g. VIGIL_EGRESS_ALLOW=${range}`;
}

/** Host names echo user input: long ones are cut so the advice after them survives the 200-character detail bound. */
const MAX_HOST_SHOWN = 40;

/** "127.0.0.1 is a loopback address" or "receiver.lan resolves to 192.168.1.20, a private address". */
function whatWasRefused(err: EgressDeniedError, address: string, cls: AddressClass): string {
  const host = err.host;
  if (host === '' || host === address) return `${address} is ${describeClass(cls)}`;
  const shown = host.length <= MAX_HOST_SHOWN ? host : `${host.slice(0, MAX_HOST_SHOWN - 1)}…`;
  return `${shown} resolves to ${address}, ${describeClass(cls)}`;
}

/**
 * The refusal as one sentence a user can act on, e.g. "127.0.0.1 is a loopback address; Vigil
 * sends to private or loopback addresses only if VIGIL_EGRESS_ALLOW allows them (e.g.
 * VIGIL_EGRESS_ALLOW=127.0.0.1/32)". Cloud metadata addresses are never allowed, so that refusal
 * names no way round it. Short enough for a field's error detail (200 characters).
 */
export function egressRefusal(err: EgressDeniedError, runtime: Runtime): string {
  const address = err.address;
  const cls = err.addressClass;
  if (address === undefined || cls === undefined) return err.message;
  const what = whatWasRefused(err, address, cls);
  const setting = runtime === 'cloud' ? 'VIGIL_EGRESS_ALLOW (vigil:egressAllow)' : 'VIGIL_EGRESS_ALLOW';
  if (err instanceof CleartextDeniedError)
    return `${what}; use https://, since http:// goes only to ranges ${setting} allows (your own machine or LAN)`;
  if (cls === 'metadata')
    return `${what}, which hands out cloud credentials; Vigil never sends to it, whatever VIGIL_EGRESS_ALLOW lists`;
  // "a reserved address" -> "reserved addresses"; private and loopback are named together, as users meet them.
  const kind =
    cls === 'private' || cls === 'loopback'
      ? 'private or loopback addresses'
      : `${describeClass(cls).replace(/^an? /, '')}es`;
  return `${what}; Vigil sends to ${kind} only if VIGIL_EGRESS_ALLOW allows them (${allowListExample(singleRange(address), runtime)})`;
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
