import type { ResolvedAddress } from '../../lib/egress/egress-guard.ts';

/**
 * A resolver for the egress guard that answers from a map the test owns (and may change), so
 * tests of refusals by host name never ask a real DNS server.
 */
export function mapResolver(names: Map<string, string>): (host: string) => Promise<ResolvedAddress[]> {
  return async (host) => {
    const address = names.get(host);
    return address ? [{ address, family: 4 }] : [];
  };
}

/** The advice a refusal gives for `range`: the variable locally, the CDK context that sets it in the cloud. */
export const ALLOW_ADVICE = {
  local: (range: string) => `only if VIGIL_EGRESS_ALLOW allows them (e.g. VIGIL_EGRESS_ALLOW=${range})`,
  lambda: (range: string) =>
    `only if VIGIL_EGRESS_ALLOW allows them (deploy with -c vigil:egressAllow=${range})`,
};
