import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, must } from '../api/client';
import type { components } from '../api/schema';
import { Time } from '../ui/bits';
import { ConfirmButton } from '../ui/confirm';
import { ErrorNote } from '../ui/feedback';
import { Table } from '../ui/table';
import { LocationKeys } from './location-keys';
import { locationKeys } from './queries';
import { KIND_WORDS } from './words';

type Location = components['schemas']['Location'];

/**
 * The locations as a table: name, kind, online or offline (in words, not colour alone), when last
 * seen and the version it runs. Admins also get each location's keys and its deletion; `default`
 * (the runtime itself) has neither.
 */
export function LocationTable({ locations, isAdmin }: { locations: readonly Location[]; isAdmin: boolean }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<string>();
  const remove = useMutation({
    mutationFn: (id: string) => must(api.DELETE('/v1/locations/{id}', { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: locationKeys.all }),
  });
  return (
    <Table
      label="Locations"
      before={<ErrorNote error={remove.error} title="The location was not deleted." />}
      rows={locations}
      rowKey={(l) => l.id}
      detail={(l) =>
        isAdmin && open === l.id ? { content: <LocationKeys id={l.id} name={l.name} /> } : null
      }
      columns={[
        { header: 'Name', cell: (l) => l.name },
        { header: 'Kind', cell: (l) => KIND_WORDS[l.kind] },
        {
          header: 'State',
          cell: (l) => (
            <span className={`badge ${l.state === 'online' ? 'state-up' : 'state-down'}`}>{l.state}</span>
          ),
        },
        { header: 'Last seen', cell: (l) => <Time iso={l.last_seen_at} /> },
        { header: 'Version', cell: (l) => l.version ?? <span className="muted">–</span> },
        isAdmin && {
          header: 'Actions',
          cell: (l) =>
            l.kind === 'runtime' ? null : (
              <div className="row">
                <button
                  type="button"
                  aria-expanded={open === l.id}
                  onClick={() => setOpen(open === l.id ? undefined : l.id)}
                >
                  Keys of {l.name}
                </button>
                <ConfirmButton
                  label={`Delete ${l.name}`}
                  question={`Delete “${l.name}” and all its keys? Its agent is refused from its next request.`}
                  confirmLabel="Delete location"
                  onConfirm={() => remove.mutateAsync(l.id).catch(() => undefined)}
                />
              </div>
            ),
        },
      ]}
    />
  );
}
