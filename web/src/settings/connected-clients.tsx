import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../api/client';
import { oauthKeys, oauthQueries } from '../oauth/queries';
import { Time } from '../ui/bits';
import { ConfirmButton } from '../ui/confirm';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { Section } from '../ui/page';
import { Table } from '../ui/table';

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
        <Table
          label="Connected MCP clients"
          rows={list}
          rowKey={(grant) => grant.id}
          columns={[
            { header: 'Client', cell: (grant) => grant.client_name },
            { header: 'Scopes', cell: (grant) => grant.scopes.join(', ') },
            { header: 'Connected', cell: (grant) => <Time iso={grant.created_at} /> },
            {
              header: 'Last used',
              cell: (grant) => (grant.last_used_at ? <Time iso={grant.last_used_at} /> : 'never'),
            },
            {
              header: <span className="sr-only">Revoke</span>,
              cell: (grant) => (
                <ConfirmButton
                  label="Revoke"
                  question={`Revoke ${grant.client_name}? Its tokens stop working at once.`}
                  onConfirm={() => revoke.mutateAsync(grant.id)}
                />
              ),
            },
          ]}
        />
      ) : null}
      <ErrorNote error={revoke.error} title="The client was not revoked." />
    </Section>
  );
}
