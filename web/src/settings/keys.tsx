import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, fieldErrors, must } from '../api/client';
import { useSession } from '../session';
import { CopyBlock, ShownOnce, Time } from '../ui/bits';
import { ConfirmButton } from '../ui/confirm';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { CheckboxField, TextField } from '../ui/fields';
import { Section } from '../ui/page';
import { Table } from '../ui/table';
import { settingsKeys, settingsQueries } from './queries';

const LAST_ADMIN_KEY =
  'The last read-write key with admin rights: create another read-write key before revoking it.';

/** The id of the account's only admin key (read-write, of an admin), when there is exactly one. */
function onlyAdminKey(
  keys: { id: string; user_id: string; is_read_only: boolean }[] | undefined,
  team: { id: string; role: string; status: string }[] | undefined,
): string | undefined {
  if (!keys || !team) return undefined;
  const admins = new Set(team.filter((u) => u.status === 'active' && u.role === 'admin').map((u) => u.id));
  const adminKeys = keys.filter((k) => !k.is_read_only && admins.has(k.user_id));
  return adminKeys.length === 1 ? adminKeys[0]?.id : undefined;
}

/**
 * API keys: the list (never the raw key), create (the raw key is shown here once), revoke.
 * Admins see every key of the account, members their own. A read-only key cannot list keys
 * (the API answers READ_ONLY), so it gets a sentence instead. The account's last admin key (a
 * read-write key of an admin) cannot be revoked (the API answers 409): its button is disabled
 * and says why, and a refusal the page could not foresee (a revoke in another tab) is shown.
 */
export function KeysSection() {
  const session = useSession();
  const queryClient = useQueryClient();
  const [label, setLabel] = useState('');
  const [readOnly, setReadOnly] = useState(false);
  const [fresh, setFresh] = useState<{ key: string; label: string } | undefined>();
  const keys = useQuery({
    ...settingsQueries.keys(),
    enabled: session.canWrite,
  });
  // Only admins see other people's keys, so only they need the roles (the team section reads the same).
  const team = useQuery({
    ...settingsQueries.users(),
    enabled: session.isAdmin,
  });
  const lastAdminKey = onlyAdminKey(keys.data, team.data);
  const create = useMutation({
    mutationFn: () => must(api.POST('/v1/auth/keys', { body: { label, is_read_only: readOnly } })),
    onSuccess: (made) => {
      setFresh({ key: made.key, label: made.label });
      setLabel('');
      setReadOnly(false);
      revoke.reset();
      void queryClient.invalidateQueries({ queryKey: settingsKeys.keys });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => must(api.DELETE('/v1/auth/keys/{id}', { params: { path: { id } } })),
    onSuccess: (_, id) => {
      if (id === session.me.key.id) session.signOut();
      else void queryClient.invalidateQueries({ queryKey: settingsKeys.keys });
    },
    // Refused (the last admin key) or gone: show the keys as they are now.
    onError: () => queryClient.invalidateQueries({ queryKey: settingsKeys.keys }),
  });
  if (!session.canWrite)
    return (
      <Section title="API keys">
        <p>You are signed in with a read-only key: keys are listed and made with a key that can write.</p>
      </Section>
    );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFresh(undefined);
    create.mutate();
  };
  const errs = fieldErrors(create.error);
  return (
    <Section title="API keys">
      {fresh ? (
        <ShownOnce onDone={() => setFresh(undefined)}>
          <p>
            <strong>Your new key “{fresh.label}”.</strong> Copy it now: it will not be shown again.
          </p>
          <CopyBlock text={fresh.key} label="New API key" />
        </ShownOnce>
      ) : null}
      <form className="row key-form" onSubmit={submit} aria-label="Create an API key">
        <TextField label="Label" value={label} onChange={setLabel} error={errs.label} required />
        <CheckboxField
          label="Read-only"
          checked={readOnly}
          onChange={setReadOnly}
          hint="Can read everything, change nothing."
        />
        <button type="submit" className="primary" disabled={create.isPending || label.trim() === ''}>
          Create key
        </button>
      </form>
      <ErrorNote error={create.error} title="The key was not created." />
      <ErrorNote error={revoke.error} title="The key was not revoked." />
      {keys.isLoading ? <Loading what="keys" /> : null}
      <ErrorNote error={keys.error} title="The keys could not be loaded." />
      {keys.data && keys.data.length === 0 ? (
        <Empty title="No keys yet.">Create one above: each program or person signs in with its own.</Empty>
      ) : null}
      {keys.data && keys.data.length > 0 ? (
        <Table
          label="API keys"
          rows={keys.data}
          rowKey={(k) => k.id}
          columns={[
            {
              header: 'Label',
              cell: (k) => (
                <>
                  {k.label} {k.id === session.me.key.id ? <span className="badge">this session</span> : null}
                </>
              ),
            },
            { header: 'Key', cell: (k) => <code>{k.prefix}…</code> },
            { header: 'Access', cell: (k) => (k.is_read_only ? 'read-only' : 'read and write') },
            { header: 'Created', cell: (k) => <Time iso={k.created_at} /> },
            { header: 'Last used', cell: (k) => <Time iso={k.last_used_at} /> },
            {
              header: <span className="sr-only">Revoke</span>,
              cell: (k) => (
                <>
                  <ConfirmButton
                    disabled={k.id === lastAdminKey}
                    label={`Revoke ${k.label}`}
                    question={
                      k.id === session.me.key.id
                        ? `Revoke “${k.label}”? It is the key you are signed in with: you will be signed out.`
                        : `Revoke “${k.label}”? Anything using it stops working at once.`
                    }
                    confirmLabel="Revoke key"
                    onConfirm={() => revoke.mutateAsync(k.id).catch(() => undefined)}
                  />
                  {k.id === lastAdminKey ? <p className="hint">{LAST_ADMIN_KEY}</p> : null}
                </>
              ),
            },
          ]}
        />
      ) : null}
    </Section>
  );
}
