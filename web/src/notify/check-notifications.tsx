import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, fieldErrors, must, type Schemas } from '../api/client';
import { useSession } from '../session';
import { ConfirmButton } from '../ui/confirm';
import { ErrorNote, Loading, Notice } from '../ui/feedback';
import { CheckboxField, TextField } from '../ui/fields';
import { FormShell } from '../ui/form-shell';
import { Section } from '../ui/page';
import { AttachChannel } from './attach-channel';
import { DestinationFields, useDestination } from './channel-fields';
import { channelForm } from './channel-forms/registry';
import { PolicyFacts } from './policy-facts';
import { channelsChanged, notifyQueries, policyKeys } from './queries';
import { SaveWarnings } from './save-warnings';
import { RoutedChannels, SendTest } from './send-test';
import { TemplateFields, useTemplate } from './template-fields';
import { ChannelTarget } from './words';

type Policy = Schemas['NotificationPolicy'];

/**
 * A check's notifications (docs/notifications.md): its policy, its channels, and "Send test".
 * Writers edit; a read-only key sees the same facts without a single control (and URLs as ********).
 */
export function CheckNotifications({ checkId }: { checkId: string }) {
  const { canWrite } = useSession();
  // Kept here, not in the form: a save changes updated_at, which remounts the form (its key).
  const [savedAt, setSavedAt] = useState<string | null>();
  const policy = useQuery(notifyQueries.policy(checkId));
  return (
    <Section title="Notifications">
      {policy.isPending ? <Loading what="the notification policy" /> : null}
      <ErrorNote error={policy.error} title="The notification policy could not be read." />
      {policy.data ? (
        <>
          {canWrite ? (
            <PolicyForm
              key={policy.data.updated_at ?? 'defaults'}
              policy={policy.data}
              saved={savedAt !== undefined && savedAt === policy.data.updated_at}
              onSaved={setSavedAt}
            />
          ) : (
            <PolicyFacts policy={policy.data} />
          )}
          <Channels policy={policy.data} canWrite={canWrite} />
          {canWrite ? <SendTest checkId={checkId} hasChannels={policy.data.channels.length > 0} /> : null}
        </>
      ) : null}
    </Section>
  );
}

function PolicyForm({
  policy,
  saved,
  onSaved,
}: {
  policy: Policy;
  /** This policy is the one this form just saved. */
  saved: boolean;
  /** The saved policy's updated_at; undefined when a new save starts. */
  onSaved: (updatedAt: string | null | undefined) => void;
}) {
  const queryClient = useQueryClient();
  const [cooldown, setCooldown] = useState(String(policy.cooldown_seconds));
  const [repeat, setRepeat] = useState(String(policy.repeat_interval_seconds));
  const [recovery, setRecovery] = useState(policy.notify_on_recovery);
  const [silenced, setSilenced] = useState(policy.silenced);
  const [suppress, setSuppress] = useState(policy.suppress_when_upstream_down);
  const [flaps, setFlaps] = useState(String(policy.flap_changes));
  const [flapWindow, setFlapWindow] = useState(String(policy.flap_window_seconds));
  const [flapSettle, setFlapSettle] = useState(String(policy.flap_settle_seconds));
  const save = useMutation({
    mutationFn: () =>
      must(
        api.POST('/v1/checks/{check_id}/policy', {
          params: { path: { check_id: policy.check_id } },
          body: {
            cooldown_seconds: (cooldown.trim() === '' ? 300 : Number(cooldown)) as number,
            repeat_interval_seconds: (repeat.trim() === '' ? 0 : Number(repeat)) as number,
            notify_on_recovery: recovery,
            silenced,
            suppress_when_upstream_down: suppress,
            flap_changes: (flaps.trim() === '' ? 6 : Number(flaps)) as number,
            flap_window_seconds: flapWindow.trim() === '' ? 1800 : Number(flapWindow),
            flap_settle_seconds: flapSettle.trim() === '' ? 300 : Number(flapSettle),
          },
        }),
      ),
    onSuccess: async (p) => {
      onSaved(p.updated_at);
      queryClient.setQueryData(policyKeys.ofCheck(policy.check_id), p);
    },
  });
  const errs = fieldErrors(save.error);
  const submit = () => {
    onSaved(undefined);
    save.mutate();
  };
  return (
    <FormShell
      title="Notification policy"
      heading="Policy"
      onSubmit={submit}
      send={save}
      submitLabel="Save policy"
      failed="The policy was not saved."
      done={saved ? <Notice>The policy was saved.</Notice> : null}
      after={
        <>
          <CheckboxField
            label="Alert on recovery"
            checked={recovery}
            onChange={setRecovery}
            error={errs.notify_on_recovery}
          />
          <CheckboxField
            label="Silenced (pause all alerts)"
            checked={silenced}
            onChange={setSilenced}
            error={errs.silenced}
          />
          <CheckboxField
            label="Hold back alerts while an entity this one depends on is down"
            checked={suppress}
            onChange={setSuppress}
            error={errs.suppress_when_upstream_down}
          />
        </>
      }
    >
      <TextField
        label="Cooldown (seconds)"
        type="number"
        value={cooldown}
        onChange={setCooldown}
        placeholder="300"
        hint="Minimum gap between alerts of this check (0 to 86400)"
        error={errs.cooldown_seconds}
      />
      <TextField
        label="Repeat while down (seconds)"
        type="number"
        value={repeat}
        onChange={setRepeat}
        placeholder="0"
        hint="0: never; otherwise 60 (a minute) to 86400 (a day)"
        error={errs.repeat_interval_seconds}
      />
      <TextField
        label="Flapping after (changes)"
        type="number"
        value={flaps}
        onChange={setFlaps}
        placeholder="6"
        hint="More changes than this within the window: one flapping notice, then alerts held until stable (0: off; 2 to 50)"
        error={errs.flap_changes}
      />
      <TextField
        label="Flapping window (seconds)"
        type="number"
        value={flapWindow}
        onChange={setFlapWindow}
        placeholder="1800"
        hint="60 to 86400; changes are counted within it, and flapping ends after a whole window without one"
        error={errs.flap_window_seconds}
      />
      <TextField
        label="Flapping settle time (seconds)"
        type="number"
        value={flapSettle}
        onChange={setFlapSettle}
        placeholder="300"
        hint="How long a flapping check must stay in one state before that state is told (60 to 86400; at most the window)"
        error={errs.flap_settle_seconds}
      />
    </FormShell>
  );
}

function Channels({ policy, canWrite }: { policy: Policy; canWrite: boolean }) {
  const queryClient = useQueryClient();
  const [removeError, setRemoveError] = useState<unknown>();
  const remove = async (channelId: string) => {
    setRemoveError(undefined);
    try {
      await must(
        api.DELETE('/v1/checks/{check_id}/policy/channels/{channel_id}', {
          params: { path: { check_id: policy.check_id, channel_id: channelId } },
        }),
      );
    } catch (err) {
      setRemoveError(err);
    }
    await channelsChanged(queryClient);
  };
  return (
    <div className="notify-channels">
      <h3>Channels</h3>
      <RoutedChannels routes={policy.routes} own={policy.channels.length} />
      {policy.channels.length === 0 ? (
        policy.routes.some((r) => r.channels.length > 0) ? (
          <p className="muted">No channels of its own: only the routes above tell anyone.</p>
        ) : (
          <p className="muted">
            No channels and no route: state changes of this check are logged but nobody is told.
            {canWrite ? ' Add one below.' : ''}
          </p>
        )
      ) : (
        <ul className="channel-list" aria-label="Channels">
          {policy.channels.map((c) => (
            <li key={c.id}>
              <span className="badge">{c.channel_type}</span>{' '}
              {c.check_id === null ? <strong>{c.name} (shared) </strong> : null}
              <ChannelTarget channel={c} />
              {canWrite ? (
                <ConfirmButton
                  {...(c.check_id === null
                    ? {
                        label: `Detach ${c.name}`,
                        question: `Detach the shared channel ${c.name} from this check? It stays for its other checks and routes.`,
                        confirmLabel: 'Detach',
                      }
                    : {
                        label: `Remove ${c.channel_type} channel`,
                        question: `Remove this ${c.channel_type} channel? It gets no more alerts.`,
                        confirmLabel: 'Remove',
                      })}
                  onConfirm={() => remove(c.id)}
                />
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <ErrorNote error={removeError} title="The channel was not removed." />
      {canWrite ? (
        <AttachChannel checkId={policy.check_id} attached={policy.channels.map((c) => c.id)} />
      ) : null}
      {canWrite ? <AddChannel checkId={policy.check_id} /> : null}
    </div>
  );
}

function AddChannel({ checkId }: { checkId: string }) {
  const queryClient = useQueryClient();
  const d = useDestination();
  const t = useTemplate();
  const takesTemplate = channelForm(d.type).templates !== false;
  const add = useMutation({
    mutationFn: () => {
      const template = takesTemplate ? t.value() : null;
      return must(
        api.POST('/v1/checks/{check_id}/policy/channels', {
          params: { path: { check_id: checkId } },
          body: { channel_type: d.type, config: d.config(), ...(template ? { template } : {}) } as never,
        }),
      );
    },
    onSuccess: async () => {
      d.reset();
      t.reset();
      await channelsChanged(queryClient);
    },
  });
  const errs = fieldErrors(add.error);
  const submit = () => {
    add.mutate();
  };
  return (
    <FormShell
      title="Add a channel"
      primary={false}
      onSubmit={submit}
      send={add}
      submitLabel="Add channel"
      failed="The channel was not added."
      after={takesTemplate ? <TemplateFields t={t} channelType={d.type} errs={errs} /> : null}
      done={
        <>
          {add.isSuccess ? <Notice>The {add.data.channel_type} channel was added.</Notice> : null}
          {add.isSuccess ? <SaveWarnings warnings={add.data.warnings} /> : null}
        </>
      }
    >
      <DestinationFields d={d} errs={errs} />
    </FormShell>
  );
}
