import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../api/client';
import { deviceWords } from '../people/words';
import { Time } from '../ui/bits';
import { ConfirmButton } from '../ui/confirm';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { Section } from '../ui/page';
import { Table } from '../ui/table';
import { settingsKeys, settingsQueries } from './queries';

/**
 * Your sessions: every browser signed in as you (password or SSO), the one you use marked. Revoking
 * one signs that browser out at its next request; this browser signs out with the header's button.
 */
export function SessionsSection() {
  const queryClient = useQueryClient();
  const sessions = useQuery(settingsQueries.sessions());
  const revoke = useMutation({
    mutationFn: (id: string) => must(api.DELETE('/v1/sessions/{id}', { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.sessions }),
  });
  return (
    <Section title="Sessions">
      <p className="muted">Browsers signed in as you. API keys are listed under API keys.</p>
      {sessions.isLoading ? <Loading what="your sessions" /> : null}
      <ErrorNote error={sessions.error} title="Your sessions could not be loaded." />
      <ErrorNote error={revoke.error} title="The session was not revoked." />
      {sessions.data && sessions.data.length === 0 ? (
        <Empty title="No browser is signed in as you.">You are using an API key here.</Empty>
      ) : null}
      {sessions.data && sessions.data.length > 0 ? (
        <Table
          label="Sessions"
          rows={sessions.data}
          rowKey={(s) => s.id}
          columns={[
            {
              header: 'Device',
              cell: (s) => (
                <>
                  {deviceWords(s.user_agent)} {s.current ? <span className="badge">this browser</span> : null}
                </>
              ),
            },
            { header: 'Signed in with', cell: (s) => (s.method === 'sso' ? 'SSO' : 'password') },
            { header: 'From', cell: (s) => s.source_ip ?? <span className="muted">unknown</span> },
            { header: 'Started', cell: (s) => <Time iso={s.created_at} /> },
            { header: 'Last active', cell: (s) => <Time iso={s.last_seen_at} /> },
            { header: 'Ends', cell: (s) => <Time iso={s.expires_at} /> },
            {
              header: <span className="sr-only">Revoke</span>,
              cell: (s) =>
                s.current ? (
                  <span className="muted">signed in here</span>
                ) : (
                  <ConfirmButton
                    label={`Revoke ${deviceWords(s.user_agent)} session`}
                    question={`Sign out the session on ${deviceWords(s.user_agent)}? That browser has to sign in again.`}
                    confirmLabel="Revoke session"
                    onConfirm={() => revoke.mutateAsync(s.id).catch(() => undefined)}
                  />
                ),
            },
          ]}
        />
      ) : null}
    </Section>
  );
}
