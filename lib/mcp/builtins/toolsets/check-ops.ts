import type { CreateSkillBody } from '../../../skills/manifest.ts';
import { checkRef, checkRunsInput, listHeartbeatsInput, pingLogInput } from '../catalog-ops-schemas.ts';
import { CHECK_EDIT_ENTRIES } from '../check-edits.ts';
import { getCheckRuns } from '../check-runs.ts';
import { getPingLog, listHeartbeats } from '../heartbeats.ts';
import { runCheck } from '../run-check.ts';
import { SILENCE_CHECK_ENTRY } from '../silence-check.ts';

/** The check-ops toolset: run, change, delete and silence checks; heartbeats, their pings and runs. */
export const CHECK_OPS_MANIFEST = {
  slug: 'check-ops',
  name: 'Check operations',
  description:
    'Run a check now, change or delete checks (dry run first), silence a check, follow heartbeats, their pings and runs.',
  version: '1.1.0',
  enabled: true,
  tools: [
    {
      name: 'run_check',
      description:
        'Probes a check once now: a pull check answers its result (stored like any other, marked manual; it counts for state); a check probed from other locations is dispatched to them and its result follows in get_check_results. Limited per check (2, then one every 30 s) and per account; push and disabled checks are refused.',
      inputSchema: checkRef,
      annotations: runCheck.annotations,
    },
    ...CHECK_EDIT_ENTRIES,
    SILENCE_CHECK_ENTRY,
    {
      name: 'list_heartbeats',
      description:
        'Push checks (heartbeats of cron jobs) with their status (failing, late, started, never_pinged, up, paused), last ping, next expected time and when they fail; filter by status; paged (next_cursor continues).',
      inputSchema: listHeartbeatsInput,
      annotations: listHeartbeats.annotations,
    },
    {
      name: 'get_ping_log',
      description:
        "A push check's pings, newest first and paged: kind (success, start, fail, exit, log), exit status, run id, run duration, sender and body (its last 2,000 characters; secret-looking lines redacted for read-only keys).",
      inputSchema: pingLogInput,
      annotations: getPingLog.annotations,
    },
    {
      name: 'get_check_runs',
      description:
        "A push check's runs (a /start to its end), newest first and paged: start, end, duration, outcome (success, fail, exit, running, hung, missed), exit status, run id, log excerpt and flags (too_short, too_long, overlap, early, hung, anomalous_duration, anomalous_start), with the learned normal (duration and start-offset percentiles, and whether it flags runs yet).",
      inputSchema: checkRunsInput,
      annotations: getCheckRuns.annotations,
    },
  ],
} satisfies CreateSkillBody;
