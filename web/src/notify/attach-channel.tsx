import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, fieldErrors, must } from '../api/client';
import { Notice } from '../ui/feedback';
import { SelectField } from '../ui/fields';
import { FormShell } from '../ui/form-shell';
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
  if (shared.data && shared.data.length === 0)
    return (
      <p className="muted">
        Shared channels, created once on the <Link to="/channels">Channels</Link> page, can be attached here.
      </p>
    );
  return (
    <FormShell
      title="Attach a shared channel"
      primary={false}
      send={attach}
      disabled={channelId === ''}
      submitLabel="Attach channel"
      failed="The channel was not attached."
      done={
        <>
          {attach.isSuccess ? <Notice>{attach.data.name} was attached.</Notice> : null}
          {attach.isSuccess ? <SaveWarnings warnings={attach.data.warnings} /> : null}
        </>
      }
    >
      <SelectField
        label="Shared channel"
        value={channelId}
        onChange={setPicked}
        options={choices.map((c) => ({ value: c.id, label: `${c.name} (${c.channel_type})` }))}
        error={fieldErrors(attach.error).channel_id}
      />
    </FormShell>
  );
}
