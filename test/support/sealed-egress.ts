import type { HttpTransport } from '../../lib/egress/egress.ts';
import { ConnectionError } from '../../lib/egress/egress-errors.ts';

/**
 * The channel and action transport of suites that create channels and actions from generated input
 * (fuzz, the OpenAPI tester): a generated literal public address (https://75.222.218.81) passes the
 * guard like any public host, so a policy test or an action run would dial it. Here nothing is
 * dialled: every send fails as a refused connection, and `attempts` says where it would have gone.
 */
export function sealedEgress(): { transport: HttpTransport; attempts: string[] } {
  const attempts: string[] = [];
  return {
    attempts,
    transport: async (req) => {
      attempts.push(req.url.origin);
      throw new ConnectionError(
        `${req.url.hostname}: nothing leaves the machine in this suite`,
        'ECONNREFUSED',
      );
    },
  };
}
