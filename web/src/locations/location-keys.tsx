import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, must } from '../api/client';
import { Time } from '../ui/bits';
import { ConfirmButton } from '../ui/confirm';
import { ErrorNote, Loading } from '../ui/feedback';
import { FreshKey } from './fresh-key';
import { locationKeys, locationQueries } from './queries';

/**
 * One location's keys (admins): their prefixes, another key (shown once, to rotate without
 * downtime), and revocation, which the location's agent feels at its next request.
 */
export function LocationKeys({ id, name }: { id: string; name: string }) {
  const queryClient = useQueryClient();
  const keys = useQuery(locationQueries.keys(id));
  const [fresh, setFresh] = useState<string>();
  const changed = () => queryClient.invalidateQueries({ queryKey: locationKeys.keys(id) });
  const add = useMutation({
    mutationFn: () => must(api.POST('/v1/locations/{id}/keys', { params: { path: { id } } })),
    onSuccess: (made) => {
      setFresh(made.key);
      void changed();
    },
  });
  const revoke = useMutation({
    mutationFn: (keyId: string) =>
      must(api.DELETE('/v1/locations/{id}/keys/{key_id}', { params: { path: { id, key_id: keyId } } })),
    onSettled: changed,
  });
  return (
    <div className="location-keys">
      {fresh ? <FreshKey name={name} keyText={fresh} onDone={() => setFresh(undefined)} /> : null}
      {keys.isPending ? <Loading what="keys" /> : null}
      <ErrorNote error={keys.error} title="The keys could not be loaded." />
      <ul aria-label={`Keys of ${name}`}>
        {(keys.data ?? []).map((k) => (
          <li key={k.id} className="row">
            <code>{k.prefix}…</code> <span className="muted">created</span> <Time iso={k.created_at} />
            <ConfirmButton
              label={`Revoke ${k.prefix}…`}
              question={`Revoke the key ${k.prefix}… of “${name}”? An agent using it is refused from its next request.`}
              confirmLabel="Revoke key"
              onConfirm={() => revoke.mutateAsync(k.id).catch(() => undefined)}
            />
          </li>
        ))}
      </ul>
      {keys.data && keys.data.length === 0 ? (
        <p className="muted">No key: no agent can speak for it.</p>
      ) : null}
      <button type="button" disabled={add.isPending} onClick={() => add.mutate()}>
        New key for {name}
      </button>
      <ErrorNote error={add.error} title="The key was not created." />
      <ErrorNote error={revoke.error} title="The key was not revoked." />
    </div>
  );
}
