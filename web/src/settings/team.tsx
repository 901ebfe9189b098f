import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, fieldErrors, must } from '../api/client';
import { useSession } from '../session';
import { CopyBlock, Time } from '../ui/bits';
import { ConfirmButton } from '../ui/confirm';
import { ErrorNote, Loading } from '../ui/feedback';
import { SelectField, TextField } from '../ui/fields';
import { Section } from '../ui/page';
import { Table } from '../ui/table';
import { settingsKeys, settingsQueries } from './queries';

type Role = 'member' | 'viewer' | 'admin';

/** The roles an invitation gives: viewers read everything and change nothing. */
const ROLE_OPTIONS: { value: Role; label: string }[] = [
  { value: 'member', label: 'member' },
  { value: 'viewer', label: 'viewer (read-only)' },
  { value: 'admin', label: 'admin' },
];

/**
 * The team: members and pending invitations. Admins invite (the invitation link carries a token
 * the API shows once) and remove members or cancel invitations. Read-only keys cannot list the
 * team (member e-mails are personal data), so they get a sentence instead.
 */
export function TeamSection() {
  const session = useSession();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [link, setLink] = useState<{ email: string; url: string } | undefined>();
  const team = useQuery({
    ...settingsQueries.users(),
    enabled: session.canWrite,
  });
  const invite = useMutation({
    mutationFn: () => must(api.POST('/v1/settings/users/invite', { body: { email, role } })),
    onSuccess: (inv) => {
      setLink({
        email: inv.email,
        url: `${window.location.origin}/accept?token=${encodeURIComponent(inv.token)}`,
      });
      setEmail('');
      void queryClient.invalidateQueries({ queryKey: settingsKeys.users });
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => must(api.DELETE('/v1/settings/users/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.users }),
  });
  if (!session.canWrite)
    return (
      <Section title="Team">
        <p>
          You are signed in {session.me.user?.role === 'viewer' ? 'as a viewer' : 'with a read-only key'}: the
          team is shown to members and admins.
        </p>
      </Section>
    );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setLink(undefined);
    invite.mutate();
  };
  const errs = fieldErrors(invite.error);
  return (
    <Section title="Team">
      {session.isAdmin ? (
        <>
          {link ? (
            <div className="fresh-key" role="status">
              <p>
                <strong>Invitation for {link.email}.</strong> Send them this link; it will not be shown again.
              </p>
              <CopyBlock text={link.url} label="Invitation link" />
            </div>
          ) : null}
          <form className="row key-form" onSubmit={submit} aria-label="Invite a member">
            <TextField
              label="E-mail"
              type="email"
              value={email}
              onChange={setEmail}
              error={errs.email}
              required
              autoComplete="off"
            />
            <SelectField
              label="Role"
              value={role}
              onChange={(v) => setRole(ROLE_OPTIONS.find((o) => o.value === v)?.value ?? 'member')}
              options={ROLE_OPTIONS}
              error={errs.role}
            />
            <button type="submit" className="primary" disabled={invite.isPending || email.trim() === ''}>
              Invite
            </button>
          </form>
          <ErrorNote error={invite.error} title="The invitation was not made." />
          <ErrorNote error={remove.error} title="That was not removed." />
        </>
      ) : (
        <p className="muted">Admins invite and remove members.</p>
      )}
      {team.isLoading ? <Loading what="the team" /> : null}
      <ErrorNote error={team.error} title="The team could not be loaded." />
      {team.data ? (
        <Table
          label="Team"
          rows={team.data}
          rowKey={(u) => u.id}
          columns={[
            { header: 'E-mail', cell: (u) => u.email },
            {
              header: 'Name',
              cell: (u) => (u.status === 'active' ? u.name : <span className="muted">—</span>),
            },
            { header: 'Role', cell: (u) => u.role },
            {
              header: 'Status',
              cell: (u) =>
                u.status === 'active' ? (
                  'active'
                ) : (
                  <>
                    invited, until <Time iso={u.expires_at} />
                  </>
                ),
            },
            { header: 'Since', cell: (u) => <Time iso={u.created_at} /> },
            session.isAdmin && {
              header: <span className="sr-only">Remove</span>,
              cell: (u) =>
                u.id === session.me.user?.id ? (
                  <span className="muted">you</span>
                ) : (
                  <ConfirmButton
                    label={u.status === 'active' ? `Remove ${u.email}` : `Cancel invitation for ${u.email}`}
                    question={
                      u.status === 'active'
                        ? `Remove ${u.email} from the team? Their keys stop working at once.`
                        : `Cancel the invitation for ${u.email}? Its link stops working.`
                    }
                    confirmLabel={u.status === 'active' ? 'Remove member' : 'Cancel invitation'}
                    onConfirm={() => remove.mutateAsync(u.id).catch(() => undefined)}
                  />
                ),
            },
          ]}
        />
      ) : null}
    </Section>
  );
}
