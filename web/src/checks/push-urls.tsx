import { CopyBlock } from '../ui/bits';
import { Section } from '../ui/page';

/** The absolute URLs a push check's agent posts to (on this console's origin, which serves /v1). */
export function pushUrls(checkId: string, origin = window.location.origin) {
  const base = `${origin}/v1/checks/${encodeURIComponent(checkId)}`;
  return { results: `${base}/results`, heartbeat: `${base}/heartbeat` };
}

/** A crontab schedule at least as often as the check's interval (cron counts whole minutes). */
export function cronSchedule(intervalSeconds: number): string {
  const minutes = Math.max(1, Math.floor(intervalSeconds / 60));
  if (minutes === 1) return '* * * * *';
  if (minutes < 60) {
    const step = [30, 20, 15, 12, 10, 6, 5, 4, 3, 2].find((d) => d <= minutes) ?? 1;
    return `*/${step} * * * *`;
  }
  const hours = Math.floor(minutes / 60);
  const step = [12, 8, 6, 4, 3, 2, 1].find((d) => d <= hours) ?? 1;
  return step === 1 ? '0 * * * *' : `0 */${step} * * *`;
}

/**
 * How an agent reports to a push check: both URLs, ready curl lines and a crontab line. The key is
 * never printed: the lines read it from $VIGIL_KEY (any key of this account that may write).
 */
export function PushInstructions({ checkId, intervalSeconds }: { checkId: string; intervalSeconds: number }) {
  const urls = pushUrls(checkId);
  const auth = '-H "Authorization: Bearer $VIGIL_KEY"';
  const heartbeatCurl = `curl -fsS -X POST ${auth} ${urls.heartbeat}`;
  const resultCurl = `curl -fsS -X POST ${auth} -H "Content-Type: application/json" \\\n  -d '{"success": true, "latency_ms": 120}' ${urls.results}`;
  const cron = `${cronSchedule(intervalSeconds)} curl -fsS -X POST ${auth} ${urls.heartbeat}`;
  return (
    <Section title="Report to this push check">
      <p>
        Vigil never probes a push check: your agent posts to it. Set <code>VIGIL_KEY</code> to an API key of
        this account (not a read-only one). A heartbeat records a success whatever its body; a result carries{' '}
        <code>success</code> and <code>latency_ms</code> (and optionally <code>error_message</code>,{' '}
        <code>status_code</code>, <code>checked_at</code>). If no report arrives within the grace period,
        Vigil records failures.
      </p>
      <CopyBlock label="Heartbeat URL" text={urls.heartbeat} />
      <CopyBlock label="Result URL" text={urls.results} />
      <CopyBlock label="Heartbeat curl" text={heartbeatCurl} />
      <CopyBlock label="Result curl" text={resultCurl} />
      <CopyBlock label="Crontab line" text={cron} />
    </Section>
  );
}
