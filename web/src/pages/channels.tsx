import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, fieldErrors, must } from '../api/client';
import { DestinationFields, useDestination } from '../notify/channel-fields';
import { channelForm } from '../notify/channel-forms/registry';
import { EditSharedChannel } from '../notify/edit-channel';
import { NotifyTabs } from '../notify/notify-tabs';
import { channelsChanged, deliveriesChanged } from '../notify/queries';
import { RoutesEditor } from '../notify/routes-editor';
import { SaveWarnings } from '../notify/save-warnings';
import { TemplateFields, useTemplate } from '../notify/template-fields';
import { type TenantChannel, useTenantChannels } from '../notify/tenant-channels';
import { ChannelTarget, deliveryInWords } from '../notify/words';
import { useSession } from '../session';
import { ConfirmButton } from '../ui/confirm';
import { Empty, ErrorNote, Loading, Notice } from '../ui/feedback';
import { TextField } from '../ui/fields';
import { FormShell } from '../ui/form-shell';
import { Page, Section } from '../ui/page';
import { Table } from '../ui/table';

/**
 * Shared channels (docs/notifications.md "Shared channels and routes"): created once here, attached
 * to any check from its notification settings, reached by routes; and the routes editor.
 */
export function ChannelsPage() {
  const { canWrite } = useSession();
  return (
    <Page title="Channels">
      <NotifyTabs />
      <SharedChannels canWrite={canWrite} />
      {canWrite ? <NewSharedChannel /> : null}
      <RoutesEditor canWrite={canWrite} />
    </Page>
  );
}

function SharedChannels({ canWrite }: { canWrite: boolean }) {
  const shared = useTenantChannels();
  const [editing, setEditing] = useState<string>();
  const [saved, setSaved] = useState<string>();
  const edited = shared.data?.find((c) => c.id === editing);
  return (
    <Section title="Shared channels">
      <ErrorNote error={shared.error} title="The channels could not be read." />
      {shared.isPending ? <Loading what="shared channels" /> : null}
      {shared.data && shared.data.length === 0 ? (
        <Empty title="No shared channels yet.">
          A shared channel is set up once and attached to many checks, or reached by routes.
        </Empty>
      ) : null}
      {shared.data && shared.data.length > 0 ? (
        <Table
          label="Shared channels"
          rows={shared.data}
          rowKey={(c) => c.id}
          columns={[
            { header: 'Name', cell: (c) => c.name },
            { header: 'Type', cell: (c) => channelForm(c.channel_type).label },
            { header: 'Target', cell: (c) => <ChannelTarget channel={c} /> },
            canWrite && {
              header: 'Actions',
              cell: (c) => (
                <SharedChannelActions
                  channel={c}
                  onEdit={() => {
                    setSaved(undefined);
                    setEditing(c.id);
                  }}
                />
              ),
            },
          ]}
        />
      ) : null}
      {saved ? <Notice>The shared channel {saved} was saved.</Notice> : null}
      {canWrite && edited ? (
        <EditSharedChannel
          key={edited.id}
          channel={edited}
          onDone={(channel) => {
            setEditing(undefined);
            setSaved(channel?.name);
          }}
        />
      ) : null}
    </Section>
  );
}

/** A shared channel's controls: send a test, edit, delete; and what each did. */
function SharedChannelActions({ channel: c, onEdit }: { channel: TenantChannel; onEdit: () => void }) {
  const queryClient = useQueryClient();
  const test = useMutation({
    mutationFn: () =>
      must(
        api.POST('/v1/notify/channels/{id}/test', {
          params: { path: { id: c.id } },
          // About the first check it is attached to, or (attached to none) about no check.
          body: {},
        }),
      ),
    onSettled: () => deliveriesChanged(queryClient),
  });
  const [removeError, setRemoveError] = useState<unknown>();
  const remove = async () => {
    setRemoveError(undefined);
    try {
      await must(api.DELETE('/v1/notify/channels/{id}', { params: { path: { id: c.id } } }));
    } catch (err) {
      setRemoveError(err);
    }
    await channelsChanged(queryClient);
  };
  return (
    <>
      <div className="row">
        <button type="button" disabled={test.isPending} onClick={() => test.mutate()}>
          {test.isPending ? 'Sending test…' : `Send test to ${c.name}`}
        </button>
        <button type="button" onClick={onEdit}>
          Edit {c.name}
        </button>
        <ConfirmButton
          label={`Delete ${c.name}`}
          question={`Delete the shared channel ${c.name}? It is detached from every check and taken out of every route.`}
          confirmLabel="Delete"
          onConfirm={remove}
        />
      </div>
      <ErrorNote error={test.error} title="The test could not be sent." />
      {test.data ? <Notice>Test result: {deliveryInWords(test.data)}</Notice> : null}
      <ErrorNote error={removeError} title="The channel was not deleted." />
    </>
  );
}

function NewSharedChannel() {
  const queryClient = useQueryClient();
  const d = useDestination();
  const t = useTemplate();
  const takesTemplate = channelForm(d.type).templates !== false;
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () => {
      const template = takesTemplate ? t.value() : null;
      return must(
        api.POST('/v1/notify/channels', {
          body: {
            name: name.trim(),
            channel_type: d.type,
            config: d.config(),
            ...(template ? { template } : {}),
          } as never,
        }),
      );
    },
    onSuccess: async () => {
      setName('');
      d.reset();
      t.reset();
      await channelsChanged(queryClient);
    },
  });
  const errs = fieldErrors(create.error);
  return (
    <Section title="New shared channel">
      <FormShell
        title="New shared channel"
        heading={false}
        send={create}
        submitLabel="Create channel"
        failed="The channel was not created."
        after={takesTemplate ? <TemplateFields t={t} channelType={d.type} errs={errs} /> : null}
        done={
          <>
            {create.isSuccess ? <Notice>The shared channel {create.data.name} was created.</Notice> : null}
            {create.isSuccess ? <SaveWarnings warnings={create.data.warnings} /> : null}
          </>
        }
      >
        <TextField
          label="Name"
          value={name}
          onChange={setName}
          required
          placeholder="On-call Slack"
          hint="Shown where you attach it and in routes"
          error={errs.name}
        />
        <DestinationFields d={d} errs={errs} />
      </FormShell>
    </Section>
  );
}
