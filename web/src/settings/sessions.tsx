import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../api/client';
import { deviceWords } from '../people/words';
import { Time } from '../ui/bits';
import { ConfirmButton } from '../ui/confirm';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { Section } from '../ui/page';
import { scrollRegion } from '../ui/scroll-region';
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
        <div className="table-wrap" {...scrollRegion('Sessions')}>
          <table>
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">Signed in with</th>
                <th scope="col">From</th>
                <th scope="col">Started</th>
                <th scope="col">Last active</th>
                <th scope="col">Ends</th>
                <th scope="col">
                  <span className="sr-only">Revoke</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.map((s) => {
                const device = deviceWords(s.user_agent);
                return (
                  <tr key={s.id}>
                    <td>
                      {device} {s.current ? <span className="badge">this browser</span> : null}
                    </td>
                    <td>{s.method === 'sso' ? 'SSO' : 'password'}</td>
                    <td>{s.source_ip ?? <span className="muted">unknown</span>}</td>
                    <td>
                      <Time iso={s.created_at} />
                    </td>
                    <td>
                      <Time iso={s.last_seen_at} />
                    </td>
                    <td>
                      <Time iso={s.expires_at} />
                    </td>
                    <td>
                      {s.current ? (
                        <span className="muted">signed in here</span>
                      ) : (
                        <ConfirmButton
                          label={`Revoke ${device} session`}
                          question={`Sign out the session on ${device}? That browser has to sign in again.`}
                          confirmLabel="Revoke session"
                          onConfirm={() => revoke.mutateAsync(s.id).catch(() => undefined)}
                        />
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </Section>
  );
}
