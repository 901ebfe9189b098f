import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, must } from '../api/client';
import { useSession } from '../session';
import { CopyBlock, ShownOnce, Time } from '../ui/bits';
import { ConfirmButton } from '../ui/confirm';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { Section } from '../ui/page';
import { Table } from '../ui/table';
import { checkQueries } from './queries';

/** The absolute URLs a push check's agent posts to (on this console's origin, which serves /v1). */
function pushUrls(checkId: string, origin = window.location.origin) {
  const base = `${origin}/v1/checks/${encodeURIComponent(checkId)}`;
  return { results: `${base}/results`, heartbeat: `${base}/heartbeat` };
}

/** A ping URL and its failure URL (on this console's origin, which serves /ping too). */
function pingUrls(token: string, origin = window.location.origin) {
  const ping = `${origin}/ping/${encodeURIComponent(token)}`;
  return { ping, fail: `${ping}/fail` };
}

/** A crontab schedule at least as often as the check's interval (cron counts whole minutes). */
function cronSchedule(intervalSeconds: number): string {
  const minutes = Math.max(1, Math.floor(intervalSeconds / 60));
  if (minutes === 1) return '* * * * *';
  if (minutes < 60) {
    const step = [30, 20, 15, 12, 10, 6, 5, 4, 3, 2].find((d) => d <= minutes) ?? 1;
    return `*/${step} * * * *`;
  }
  const hours = Math.floor(minutes / 60);
  if (hours >= 24 * 7) return '0 0 * * 0';
  if (hours >= 24) return '0 0 * * *';
  const step = [12, 8, 6, 4, 3, 2, 1].find((d) => d <= hours) ?? 1;
  return step === 1 ? '0 * * * *' : `0 */${step} * * *`;
}

/** A push check's cron schedule, when it has one (its crontab line then runs the job at those times). */
type Schedule = { cron: string; timezone: string } | undefined;

/** The schedule a crontab line runs the job on: the check's own cron, else one as often as its interval. */
function crontabSchedule(intervalSeconds: number, schedule: Schedule): string {
  return schedule ? schedule.cron : cronSchedule(intervalSeconds);
}

/** A quiet curl that fails loudly: -f turns an HTTP error into an exit code, retries ride out a blip. */
const CURL = 'curl -fsS -m 10 --retry 5 -o /dev/null';

/** A new ping URL, shown once: the URLs and the lines that use them, none with an API key. */
function FreshPingUrl({
  token,
  intervalSeconds,
  schedule,
  onDone,
}: {
  token: string;
  intervalSeconds: number;
  schedule: Schedule;
  onDone(): void;
}) {
  const urls = pingUrls(token);
  return (
    <ShownOnce onDone={onDone}>
      <p>
        <strong>Your new ping URL.</strong> Copy it now: it will not be shown again. It needs no API key and
        can only report to this check.
      </p>
      <CopyBlock label="Ping URL" text={urls.ping} />
      <CopyBlock label="Failure URL" text={urls.fail} />
      <CopyBlock label="Ping curl" text={`${CURL} ${urls.ping}`} />
      <CopyBlock label="Failure curl" text={`${CURL} ${urls.fail}`} />
      <CopyBlock
        label="Ping crontab line"
        text={`${crontabSchedule(intervalSeconds, schedule)} /path/to/your-job.sh && ${CURL} ${urls.ping}`}
      />
    </ShownOnce>
  );
}

/** The check's ping URLs: create one (shown once), the list by prefix, revoke. */
function PingUrls({
  checkId,
  intervalSeconds,
  schedule,
}: {
  checkId: string;
  intervalSeconds: number;
  schedule: Schedule;
}) {
  const session = useSession();
  const queryClient = useQueryClient();
  const [fresh, setFresh] = useState<string | undefined>();
  const { queryKey } = checkQueries.pushTokens(checkId);
  const path = { params: { path: { id: checkId } } };
  const tokens = useQuery(checkQueries.pushTokens(checkId));
  const create = useMutation({
    mutationFn: () => must(api.POST('/v1/checks/{id}/push-tokens', path)),
    onSuccess: (made) => {
      setFresh(made.token);
      void queryClient.invalidateQueries({ queryKey });
    },
  });
  const revoke = useMutation({
    mutationFn: (tokenId: string) =>
      must(
        api.DELETE('/v1/checks/{id}/push-tokens/{token_id}', {
          params: { path: { id: checkId, token_id: tokenId } },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey }),
  });
  return (
    <>
      <h3>Ping URLs</h3>
      <p>
        A ping URL reports to this check without an API key, as Healthchecks does: a <code>GET</code> or{' '}
        <code>POST</code> to it records a success (any body), to its <code>/fail</code> URL a failure. It
        works for this check only and can be revoked; keep it as secret as a password.
      </p>
      {fresh ? (
        <FreshPingUrl
          token={fresh}
          intervalSeconds={intervalSeconds}
          schedule={schedule}
          onDone={() => setFresh(undefined)}
        />
      ) : null}
      <CopyBlock
        label="Cron entry"
        text={`${crontabSchedule(intervalSeconds, schedule)} /path/to/job.sh && ${CURL} <ping url>`}
      />
      {schedule ? (
        <p className="muted">
          The check expects runs at <code>{schedule.cron}</code> in {schedule.timezone}: run the crontab in
          that zone (<code>CRON_TZ={schedule.timezone}</code> where cron supports it).
        </p>
      ) : null}
      {session.canWrite ? (
        <div className="row">
          <button
            type="button"
            className="primary"
            disabled={create.isPending}
            onClick={() => {
              setFresh(undefined);
              create.mutate();
            }}
          >
            Create ping URL
          </button>
        </div>
      ) : null}
      <ErrorNote error={create.error} title="The ping URL was not created." />
      <ErrorNote error={revoke.error} title="The ping URL was not revoked." />
      {tokens.isLoading ? <Loading what="ping URLs" /> : null}
      <ErrorNote error={tokens.error} title="The ping URLs could not be loaded." />
      {tokens.data && tokens.data.length === 0 ? (
        <Empty title="No ping URLs yet.">
          {session.canWrite
            ? 'Create one to report without an API key.'
            : 'A key that can write creates them.'}
        </Empty>
      ) : null}
      {tokens.data && tokens.data.length > 0 ? (
        <Table
          label="Ping URLs"
          rows={tokens.data}
          rowKey={(t) => t.id}
          columns={[
            { header: 'Token', cell: (t) => <code>{t.prefix}…</code> },
            { header: 'Created', cell: (t) => <Time iso={t.created_at} /> },
            { header: 'Last used', cell: (t) => <Time iso={t.last_used_at} /> },
            session.canWrite && {
              header: <span className="sr-only">Revoke</span>,
              cell: (t) => (
                <ConfirmButton
                  label={`Revoke ${t.prefix}…`}
                  question={`Revoke the ping URL ${t.prefix}…? Jobs pinging it get 404 from now on.`}
                  confirmLabel="Revoke ping URL"
                  onConfirm={() => revoke.mutateAsync(t.id).catch(() => undefined)}
                />
              ),
            },
          ]}
        />
      ) : null}
    </>
  );
}

/**
 * How an agent reports to a push check: ping URLs (no API key), then the keyed URLs with ready curl
 * lines. The key is never printed: the keyed lines read it from $VIGIL_KEY.
 */
export function PushInstructions({
  checkId,
  intervalSeconds,
  schedule,
}: {
  checkId: string;
  intervalSeconds: number;
  schedule?: Schedule;
}) {
  const urls = pushUrls(checkId);
  const auth = '-H "Authorization: Bearer $VIGIL_KEY"';
  const heartbeatCurl = `curl -fsS -X POST ${auth} ${urls.heartbeat}`;
  const resultCurl = `curl -fsS -X POST ${auth} -H "Content-Type: application/json" \\\n  -d '{"success": true, "latency_ms": 120}' ${urls.results}`;
  const cron = `${crontabSchedule(intervalSeconds, schedule)} curl -fsS -X POST ${auth} ${urls.heartbeat}`;
  return (
    <Section title="Report to this push check">
      <p>
        Vigil never probes a push check: your job reports to it. If no report arrives within the grace window
        (on an interval: counted from the last report, twice the interval unless set; on a cron schedule:
        after each expected time, an hour unless set), Vigil records a failure for each missed run.
      </p>
      <PingUrls checkId={checkId} intervalSeconds={intervalSeconds} schedule={schedule} />
      <h3>With an API key</h3>
      <p>
        Set <code>VIGIL_KEY</code> to an API key of this account (not a read-only one). A heartbeat records a
        success whatever its body; a result carries <code>success</code> and <code>latency_ms</code> (optional
        for a failure; and optionally <code>error_message</code>, <code>status_code</code>,{' '}
        <code>checked_at</code>).
      </p>
      <CopyBlock label="Heartbeat URL" text={urls.heartbeat} />
      <CopyBlock label="Result URL" text={urls.results} />
      <CopyBlock label="Heartbeat curl" text={heartbeatCurl} />
      <CopyBlock label="Result curl" text={resultCurl} />
      <CopyBlock label="Crontab line" text={cron} />
    </Section>
  );
}
