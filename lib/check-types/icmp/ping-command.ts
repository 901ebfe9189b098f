import { execFile } from 'node:child_process';

/**
 * The system's `ping` (iputils-ping on Debian, installed by .ci/run and the container image),
 * run with execFile: a fixed argv and no shell, so nothing from a check's config reaches a shell,
 * only the address the SSRF guard returned. Chosen over the npm `ping` package because here every
 * flag is ours (-W per reply, no -w deadline that keeps sending), the run is bounded by a kill
 * timer, and the parser reads only iputils' summary lines, which the tests pin.
 * iputils uses an unprivileged ICMP datagram socket (net.ipv4.ping_group_range) or a raw socket
 * (root, or the binary's cap_net_raw).
 */

export interface PingSummary {
  transmitted: number;
  received: number;
  /** Round trips in ms; absent when no reply came. */
  rtt?: { min: number; avg: number; max: number };
  /** What ping said on stderr when it failed (e.g. "connect: Network is unreachable"). */
  error?: string;
}

/** Seconds between echo requests: the shortest iputils allows without privileges. */
const INTERVAL_SECONDS = 0.2;
/** Time for ping to start and exit, beyond its own sending and waiting. */
const SLACK_MS = 2000;

export interface PingRun {
  address: string;
  family: 4 | 6;
  count: number;
  /** How long to wait for each reply. */
  timeoutMs: number;
}

/** Runs ping once; rejects when ping cannot run or reports no statistics (the message says why). */
export function runPing(run: PingRun): Promise<PingSummary> {
  const args = [
    run.family === 6 ? '-6' : '-4',
    '-n', // numeric output: no reverse lookups
    '-q', // only the summary
    '-c',
    String(run.count),
    '-i',
    String(INTERVAL_SECONDS),
    '-W',
    (run.timeoutMs / 1000).toFixed(3),
    run.address,
  ];
  const bound = Math.ceil((run.count - 1) * INTERVAL_SECONDS * 1000 + run.timeoutMs + SLACK_MS);
  return new Promise((resolve, reject) => {
    execFile(
      'ping',
      args,
      {
        timeout: bound,
        killSignal: 'SIGKILL',
        // A fixed search path, not the process's: the probe runs the system's ping, never one a PATH puts first.
        env: { PATH: '/usr/bin:/bin:/usr/sbin:/sbin', LC_ALL: 'C' },
      },
      (err, stdout, stderr) => {
        const code = (err as NodeJS.ErrnoException | null)?.code;
        if (code === 'ENOENT') {
          reject(new Error('the ping command is not installed on this host (install iputils-ping)'));
          return;
        }
        const error = firstLine(stderr);
        const summary = parsePingOutput(stdout);
        if (summary) {
          resolve(error ? { ...summary, error } : summary);
        } else if (err && (err as { killed?: boolean }).killed) {
          reject(new Error(`ping did not finish within ${bound} ms`));
        } else {
          reject(new Error(error ? `ping failed: ${error}` : 'ping failed without a summary'));
        }
      },
    );
  });
}

/** Reads iputils' summary ("3 packets transmitted, 2 received, …" and "rtt min/avg/max/mdev = …"). */
export function parsePingOutput(stdout: string): PingSummary | undefined {
  const counts = /(\d+) packets transmitted, (\d+) (?:packets )?received/.exec(stdout);
  if (!counts) return undefined;
  const summary: PingSummary = { transmitted: Number(counts[1]), received: Number(counts[2]) };
  const rtt = /(?:rtt|round-trip) min\/avg\/max(?:\/\w+)? = ([\d.]+)\/([\d.]+)\/([\d.]+)/.exec(stdout);
  if (rtt) summary.rtt = { min: Number(rtt[1]), avg: Number(rtt[2]), max: Number(rtt[3]) };
  return summary;
}

function firstLine(text: string): string | undefined {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  return line?.replace(/^ping: /, '').slice(0, 200);
}
