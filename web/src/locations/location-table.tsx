import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { api, must } from '../api/client';
import type { components } from '../api/schema';
import { Time } from '../ui/bits';
import { ConfirmButton } from '../ui/confirm';
import { ErrorNote } from '../ui/feedback';
import { scrollRegion } from '../ui/scroll-region';
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
    <div className="table-wrap" {...scrollRegion('Locations')}>
      <ErrorNote error={remove.error} title="The location was not deleted." />
      <table aria-label="Locations">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Kind</th>
            <th scope="col">State</th>
            <th scope="col">Last seen</th>
            <th scope="col">Version</th>
            {isAdmin ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {locations.map((l) => (
            <Fragment key={l.id}>
              <tr>
                <td>{l.name}</td>
                <td>{KIND_WORDS[l.kind]}</td>
                <td>
                  <span className={`badge ${l.state === 'online' ? 'state-up' : 'state-down'}`}>
                    {l.state}
                  </span>
                </td>
                <td>
                  <Time iso={l.last_seen_at} />
                </td>
                <td>{l.version ?? <span className="muted">–</span>}</td>
                {isAdmin ? (
                  <td>
                    {l.kind === 'runtime' ? null : (
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
                    )}
                  </td>
                ) : null}
              </tr>
              {isAdmin && open === l.id ? (
                <tr>
                  <td colSpan={6}>
                    <LocationKeys id={l.id} name={l.name} />
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
