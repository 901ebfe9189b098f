import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, must } from '../api/client';
import type { paths } from '../api/schema';
import { Time } from '../ui/bits';
import { ConfirmButton } from '../ui/confirm';
import { ErrorNote, Loading } from '../ui/feedback';
import { Table } from '../ui/table';
import { integrationKeys, integrationQueries } from './queries';

type Integration =
  paths['/v1/integrations']['get']['responses'][200]['content']['application/json']['integrations'][number];

/** The last 50 requests of one integration, newest first: when, what each became, and why. */
function Payloads({ integration }: { integration: Integration }) {
  const payloads = useQuery(integrationQueries.payloads(integration.id));
  if (payloads.isPending) return <Loading what="payloads" />;
  return (
    <>
      <ErrorNote error={payloads.error} title="The payloads could not be loaded." />
      {payloads.data?.length === 0 ? <p className="muted">Nothing received yet.</p> : null}
      <ul aria-label={`Payloads of ${integration.name}`}>
        {(payloads.data ?? []).map((p) => (
          <li key={p.seq}>
            <Time iso={p.received_at} /> <strong>{p.outcome}</strong>: {p.detail}
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * The integrations as a table: name, kind, enabled, its token's first characters and when it was
 * made; each with its payload log, and (admins) its deletion, which takes its outside checks along.
 */
export function IntegrationTable({
  integrations,
  isAdmin,
}: {
  integrations: readonly Integration[];
  isAdmin: boolean;
}) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<string>();
  const remove = useMutation({
    mutationFn: (id: string) => must(api.DELETE('/v1/integrations/{id}', { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: integrationKeys.all }),
  });
  if (integrations.length === 0) return <p className="muted">No integration yet.</p>;
  return (
    <Table
      label="Integrations"
      before={<ErrorNote error={remove.error} title="The integration was not deleted." />}
      rows={integrations}
      rowKey={(i) => i.id}
      detail={(i) => (open === i.id ? { content: <Payloads integration={i} /> } : null)}
      columns={[
        { header: 'Name', cell: (i) => i.name },
        { header: 'Kind', cell: (i) => i.kind },
        { header: 'State', cell: (i) => (i.enabled ? 'enabled' : 'disabled') },
        { header: 'Token', cell: (i) => <code>{i.token_prefix}…</code> },
        { header: 'Created', cell: (i) => <Time iso={i.created_at} /> },
        {
          header: 'Actions',
          cell: (i) => (
            <div className="row">
              <button
                type="button"
                aria-expanded={open === i.id}
                onClick={() => setOpen(open === i.id ? undefined : i.id)}
              >
                Payloads of {i.name}
              </button>
              {isAdmin ? (
                <ConfirmButton
                  label={`Delete ${i.name}`}
                  question={`Delete “${i.name}” with its alerts, its own entity and its outside checks? Its senders get 404 from then on.`}
                  confirmLabel="Delete integration"
                  onConfirm={() => remove.mutateAsync(i.id).catch(() => undefined)}
                />
              ) : null}
            </div>
          ),
        },
      ]}
    />
  );
}
