import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../api/client';
import { oauthKeys, oauthQueries } from '../oauth/queries';
import { Time } from '../ui/bits';
import { ConfirmButton } from '../ui/confirm';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { Section } from '../ui/page';

/**
 * Your connected MCP clients (OAuth grants, docs/auth.md "OAuth for MCP clients"): each client,
 * its scopes, when you connected it and when it last called; Revoke ends its access at once.
 * Everyone sees only their own, admins too.
 */
export function ConnectedClientsSection() {
  const queryClient = useQueryClient();
  const grants = useQuery(oauthQueries.grants());
  const revoke = useMutation({
    mutationFn: (id: string) => must(api.DELETE('/v1/oauth/grants/{id}', { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: oauthKeys.grants }),
  });
  const list = grants.data?.grants ?? [];
  return (
    <Section title="Connected MCP clients">
      <ErrorNote error={grants.error} title="Your connected clients could not be read." />
      {grants.isPending ? <Loading what="connected clients" /> : null}
      {grants.data && list.length === 0 ? (
        <Empty title="No connected clients">
          MCP clients you approve (Claude, ChatGPT and other hosted connectors) are listed here.
        </Empty>
      ) : null}
      {list.length > 0 ? (
        <table aria-label="Connected MCP clients">
          <thead>
            <tr>
              <th>Client</th>
              <th>Scopes</th>
              <th>Connected</th>
              <th>Last used</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.map((grant) => (
              <tr key={grant.id}>
                <td>{grant.client_name}</td>
                <td>{grant.scopes.join(', ')}</td>
                <td>
                  <Time iso={grant.created_at} />
                </td>
                <td>{grant.last_used_at ? <Time iso={grant.last_used_at} /> : 'never'}</td>
                <td>
                  <ConfirmButton
                    label="Revoke"
                    question={`Revoke ${grant.client_name}? Its tokens stop working at once.`}
                    onConfirm={() => revoke.mutateAsync(grant.id)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <ErrorNote error={revoke.error} title="The client was not revoked." />
    </Section>
  );
}
