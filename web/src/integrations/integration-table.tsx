import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { api, must } from '../api/client';
import type { paths } from '../api/schema';
import { Time } from '../ui/bits';
import { ConfirmButton } from '../ui/confirm';
import { ErrorNote, Loading } from '../ui/feedback';
import { scrollRegion } from '../ui/scroll-region';
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
    <div className="table-wrap" {...scrollRegion('Integrations')}>
      <ErrorNote error={remove.error} title="The integration was not deleted." />
      <table aria-label="Integrations">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Kind</th>
            <th scope="col">State</th>
            <th scope="col">Token</th>
            <th scope="col">Created</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {integrations.map((i) => (
            <Fragment key={i.id}>
              <tr>
                <td>{i.name}</td>
                <td>{i.kind}</td>
                <td>{i.enabled ? 'enabled' : 'disabled'}</td>
                <td>
                  <code>{i.token_prefix}…</code>
                </td>
                <td>
                  <Time iso={i.created_at} />
                </td>
                <td>
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
                </td>
              </tr>
              {open === i.id ? (
                <tr>
                  <td colSpan={6}>
                    <Payloads integration={i} />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}
