import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api, must } from '../api/client';
import { oauthKeys, oauthQueries } from '../oauth/queries';
import { ErrorNote, Loading } from '../ui/feedback';
import { Page, Section } from '../ui/page';

/** What each scope lets the client do, as the consent page says it. */
const SCOPE_WORDS: Record<string, string> = {
  read: 'Read your catalog, checks, status and incidents',
  write: 'Change things: create checks, acknowledge incidents, add notes and maintenance',
  admin: 'Use admin-only tools on your behalf',
};

/**
 * The OAuth consent page (`/consent?request=oar_…`, where /oauth/authorize sends the browser): the
 * client's name, the host it will send you back to, the scopes it asked for and those your role
 * lets you grant; Approve or Deny sends the browser back to the client.
 */
export function ConsentPage() {
  const [params] = useSearchParams();
  const id = params.get('request') ?? '';
  const queryClient = useQueryClient();
  const request = useQuery({ ...oauthQueries.request(id), enabled: id !== '' });
  const decide = useMutation({
    mutationFn: (approve: boolean) =>
      must(
        api.POST('/v1/oauth/requests/{id}/decision', {
          params: { path: { id } },
          body: { approve, ...(approve && request.data ? { scopes: request.data.grantable } : {}) },
        }),
      ),
    onSuccess: (answer) => {
      void queryClient.invalidateQueries({ queryKey: oauthKeys.grants });
      window.location.assign(answer.redirect_to);
    },
  });
  const data = request.data;
  return (
    <Page title="Connect an MCP client">
      {id === '' ? <p>This link names no authorization request.</p> : null}
      <ErrorNote
        error={request.error}
        title="This authorization request is gone (decided, expired or not yours)."
      />
      {request.isPending && id !== '' ? <Loading what="the request" /> : null}
      {data ? (
        <Section title={data.client_name}>
          <p>
            <strong>{data.client_name}</strong> wants to use Vigil on your behalf. After your answer you go
            back to <code>{data.redirect_host}</code>.
          </p>
          <p className="muted">Client id: {data.client_id}</p>
          <ul aria-label="Scopes">
            {data.scopes.map((scope) => (
              <li key={scope}>
                <strong>{scope}</strong>: {SCOPE_WORDS[scope] ?? scope}
                {data.grantable.includes(scope) ? null : (
                  <span className="muted"> (your role cannot grant this)</span>
                )}
              </li>
            ))}
          </ul>
          <ErrorNote error={decide.error} title="The answer was not recorded." />
          <div className="row">
            <button
              type="button"
              className="primary"
              disabled={decide.isPending || data.grantable.length === 0}
              onClick={() => decide.mutate(true)}
            >
              Approve
            </button>
            <button type="button" disabled={decide.isPending} onClick={() => decide.mutate(false)}>
              Deny
            </button>
          </div>
        </Section>
      ) : null}
    </Page>
  );
}
