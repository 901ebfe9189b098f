import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, must } from '../api/client';
import { useSession } from '../session';
import { CopyBlock, ShownOnce, Time } from '../ui/bits';
import { ConfirmButton } from '../ui/confirm';
import { ErrorNote, Loading } from '../ui/feedback';
import { Section } from '../ui/page';
import { settingsKeys, settingsQueries } from './queries';

/** The slug ping URL pattern of a key (on this console's origin, which serves /ping too). */
function slugUrlPattern(pingKey: string, origin = window.location.origin): string {
  return `${origin}/ping/${encodeURIComponent(pingKey)}/<slug>`;
}

/**
 * The account's ping key: the secret half of slug ping URLs (`/ping/<ping key>/<slug>`,
 * docs/heartbeats.md "Slug URLs"). Anyone sees whether there is one (its prefix and age); admins
 * create or rotate it, and the new key is shown here once, with the URL pattern to use.
 */
export function PingKeySection() {
  const { isAdmin: admin } = useSession();
  const queryClient = useQueryClient();
  const current = useQuery(settingsQueries.pingKey());
  const [fresh, setFresh] = useState<string | undefined>();
  const rotate = useMutation({
    mutationFn: () => must(api.POST('/v1/settings/ping-key', {})),
    onSuccess: (made) => {
      setFresh(made.ping_key);
      void queryClient.invalidateQueries({ queryKey: settingsKeys.pingKey });
    },
  });
  const exists = current.data?.exists === true;
  return (
    <Section title="Ping key">
      <p>
        Push checks with a slug can be pinged by name: <code>/ping/&lt;ping key&gt;/&lt;slug&gt;</code> (add{' '}
        <code>?create=1</code> to create the check on its first ping).
      </p>
      <ErrorNote error={current.error} title="The ping key could not be read." />
      {current.isPending ? <Loading what="ping key" /> : null}
      {current.data ? (
        exists ? (
          <p>
            Ping key <code>{current.data.prefix}…</code>, created <Time iso={current.data.created_at} />.
          </p>
        ) : (
          <p>This account has no ping key yet.</p>
        )
      ) : null}
      {fresh ? (
        <ShownOnce onDone={() => setFresh(undefined)}>
          <p>
            <strong>Your new ping key.</strong> Copy it now: it will not be shown again.
          </p>
          <CopyBlock text={fresh} label="New ping key" />
          <CopyBlock text={slugUrlPattern(fresh)} label="Slug ping URL pattern" />
        </ShownOnce>
      ) : null}
      <ErrorNote error={rotate.error} title="The ping key was not made." />
      {admin && current.data && !exists ? (
        <div className="row">
          <button
            type="button"
            className="primary"
            disabled={rotate.isPending}
            onClick={() => rotate.mutate()}
          >
            Create ping key
          </button>
        </div>
      ) : null}
      {admin && exists ? (
        <div className="row">
          <ConfirmButton
            label="Rotate ping key"
            question="Rotate the ping key? Every slug ping URL with the current key stops working at once."
            confirmLabel="Rotate ping key"
            onConfirm={() =>
              rotate.mutateAsync().then(
                () => undefined,
                () => undefined,
              )
            }
          />
        </div>
      ) : null}
      {!admin && !exists && current.data ? <p className="hint">Admins create the ping key.</p> : null}
    </Section>
  );
}
