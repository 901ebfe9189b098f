// Runs the icmp probe once and prints its outcome as JSON: the icmp test runs this inside a
// network namespace of its own (unshare -n), where a dropped address stays on the machine.
import { runIcmpProbe } from '../../../lib/check-types/icmp/icmp-probe.ts';
import { systemClock } from '../../../lib/platform/clock.ts';

const [host = '', timeout = '500'] = process.argv.slice(2);
const outcome = await runIcmpProbe(
  { check_type: 'icmp', host, count: 2, timeout_ms: Number(timeout) },
  { clock: systemClock, allowPrivate: true },
);
process.stdout.write(JSON.stringify(outcome));
