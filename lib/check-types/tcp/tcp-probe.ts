import { connect } from 'node:net';
import { withDeadline } from '../../egress/egress-deadline.ts';
import { resolveAllowed } from '../../egress/egress-guard.ts';
import { describeError, failed, passed, startTimer } from '../../probes/outcome.ts';
import type { ProbeDeps, ProbeOutcome } from '../../probes/types.ts';
import type { TcpProbeJob } from './tcp.ts';

/** Opens a TCP connection to host:port (through the SSRF guard) and closes it at once. */
export async function runTcpProbe(def: TcpProbeJob, deps: ProbeDeps): Promise<ProbeOutcome> {
  const elapsed = startTimer();
  try {
    await withDeadline(def.timeout_ms, async (signal) => {
      const [target] = await resolveAllowed(def.host, {
        allowPrivate: deps.allowPrivate,
        resolve: deps.resolve,
      });
      if (!target) throw new Error(`could not resolve host ${def.host}`);
      signal.throwIfAborted(); // the deadline may have passed during resolution
      await new Promise<void>((resolve, reject) => {
        const socket = connect({ host: target.address, port: def.port });
        const onAbort = () => socket.destroy(signal.reason as Error);
        signal.addEventListener('abort', onAbort, { once: true });
        socket.once('connect', () => {
          signal.removeEventListener('abort', onAbort);
          socket.destroy();
          resolve();
        });
        socket.once('error', (err) => {
          signal.removeEventListener('abort', onAbort);
          reject(err);
        });
      });
    });
    return passed(elapsed());
  } catch (err) {
    return failed(describeError(err), elapsed());
  }
}
