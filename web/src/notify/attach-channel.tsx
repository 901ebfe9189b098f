import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { api, fieldErrors, must } from '../api/client';
import { ErrorNote, Notice } from '../ui/feedback';
import { SelectField } from '../ui/fields';
import { channelsChanged } from './queries';
import { SaveWarnings } from './save-warnings';
import { useTenantChannels } from './tenant-channels';

/** "Attach a shared channel": picks one of the tenant channels not attached to this check yet. */
export function AttachChannel({ checkId, attached }: { checkId: string; attached: readonly string[] }) {
  const queryClient = useQueryClient();
  const shared = useTenantChannels();
  const choices = (shared.data ?? []).filter((c) => !attached.includes(c.id));
  const [picked, setPicked] = useState('');
  const channelId = choices.some((c) => c.id === picked) ? picked : (choices[0]?.id ?? '');
  const attach = useMutation({
    mutationFn: () =>
      must(
        api.POST('/v1/checks/{check_id}/policy/channels', {
          params: { path: { check_id: checkId } },
          body: { channel_id: channelId },
        }),
      ),
    onSuccess: async () => {
      await channelsChanged(queryClient);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    attach.mutate();
  };
  if (shared.data && shared.data.length === 0)
    return (
      <p className="muted">
        Shared channels, created once on the <Link to="/channels">Channels</Link> page, can be attached here.
      </p>
    );
  return (
    <form onSubmit={submit} aria-label="Attach a shared channel" noValidate>
      <h3>Attach a shared channel</h3>
      <div className="form-grid">
        <SelectField
          label="Shared channel"
          value={channelId}
          onChange={setPicked}
          options={choices.map((c) => ({ value: c.id, label: `${c.name} (${c.channel_type})` }))}
          error={fieldErrors(attach.error).channel_id}
        />
      </div>
      <ErrorNote error={attach.error} title="The channel was not attached." />
      {attach.isSuccess ? <Notice>{attach.data.name} was attached.</Notice> : null}
      {attach.isSuccess ? <SaveWarnings warnings={attach.data.warnings} /> : null}
      <div className="row">
        <button type="submit" disabled={attach.isPending || channelId === ''}>
          Attach channel
        </button>
      </div>
    </form>
  );
}
