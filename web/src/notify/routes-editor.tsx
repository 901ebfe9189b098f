import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, fieldErrors, must, type Schemas } from '../api/client';
import { entityLabel } from '../catalog/entity-reads';
import { blueprintQueries } from '../catalog/queries';
import { ConfirmButton } from '../ui/confirm';
import { Empty, ErrorNote, Loading, Notice } from '../ui/feedback';
import { CheckboxField, SelectField, TextField } from '../ui/fields';
import { FormShell } from '../ui/form-shell';
import { Section } from '../ui/page';
import { Table } from '../ui/table';
import type { PickedEntity } from './entity-picker';
import { notifyQueries, routeKeys } from './queries';
import { RouteEntities } from './route-entities';
import { type TenantChannel, useTenantChannels } from './tenant-channels';

type Route = Schemas['NotificationRoute'];
const STATES = ['down', 'degraded', 'up', 'unknown'] as const;

/** "1 deleted entity" for the ids a route names that no longer exist (the answer names the others). */
function deletedEntities(r: Route): string[] {
  const gone = r.match.entity_ids.length - r.entities.length;
  return gone > 0 ? [`${gone} deleted ${gone === 1 ? 'entity' : 'entities'}`] : [];
}

/** Toggles `value` in a list (checkbox groups). */
const toggled = (list: string[], value: string, on: boolean) =>
  on ? [...list, value] : list.filter((v) => v !== value);

/** A route's grouping in words: "each alert at once", or the group, its wait and interval. */
function grouping(r: Pick<Route, 'group_by' | 'group_wait_seconds' | 'group_interval_seconds'>): string {
  if (r.group_by === 'entity' && r.group_wait_seconds === 0) return 'each alert at once';
  return `by ${r.group_by}, wait ${r.group_wait_seconds} s, then every ${r.group_interval_seconds} s`;
}

/**
 * Alert routes: which alerts (by blueprint, entity, new state) also go to which shared channels,
 * and where an unacknowledged incident escalates. Each channel still gets one alert per event.
 */
export function RoutesEditor({ canWrite }: { canWrite: boolean }) {
  const routes = useQuery(notifyQueries.routes());
  const shared = useTenantChannels();
  const channelName = (id: string) => shared.data?.find((c) => c.id === id)?.name ?? 'a deleted channel';
  const describe = (r: Route) =>
    [
      r.match.blueprint_slugs.length ? `blueprints ${r.match.blueprint_slugs.join(', ')}` : '',
      // Named by the answer; an entity deleted since stays in the match and matches nothing.
      r.match.entity_ids.length
        ? `entities ${[...r.entities.map(entityLabel), ...deletedEntities(r)].join(', ')}`
        : '',
      r.match.to_states.length ? `to ${r.match.to_states.join(' or ')}` : '',
    ]
      .filter(Boolean)
      .join('; ') || 'every alert';
  return (
    <Section title="Routes">
      <ErrorNote error={routes.error} title="The routes could not be read." />
      {routes.isPending ? <Loading what="routes" /> : null}
      {routes.data && routes.data.routes.length === 0 ? (
        <Empty title="No routes yet.">
          A route sends the alerts of matching entities to shared channels, besides each check's own.
        </Empty>
      ) : null}
      {routes.data && routes.data.routes.length > 0 ? (
        <Table
          label="Routes"
          rows={routes.data.routes}
          rowKey={(r) => r.id}
          columns={[
            { header: 'Alerts of', cell: (r) => describe(r) },
            { header: 'Also go to', cell: (r) => r.channel_ids.map(channelName).join(', ') || '—' },
            {
              header: 'Escalation',
              cell: (r) =>
                r.escalate_after_seconds === null
                  ? '—'
                  : `after ${r.escalate_after_seconds} s to ${r.escalate_channel_ids.map(channelName).join(', ')}`,
            },
            { header: 'Grouping', cell: (r) => grouping(r) },
            canWrite && { header: 'Actions', cell: (r) => <DeleteRoute id={r.id} what={describe(r)} /> },
          ]}
        />
      ) : null}
      {canWrite ? <NewRoute channels={shared.data ?? []} /> : null}
    </Section>
  );
}

function DeleteRoute({ id, what }: { id: string; what: string }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<unknown>();
  const remove = async () => {
    setError(undefined);
    try {
      await must(api.DELETE('/v1/notify/routes/{id}', { params: { path: { id } } }));
    } catch (err) {
      setError(err);
    }
    await queryClient.invalidateQueries({ queryKey: routeKeys.all });
  };
  return (
    <>
      <ConfirmButton
        label={`Delete route for ${what}`}
        question="Delete this route? Its channels get no more alerts through it."
        confirmLabel="Delete"
        onConfirm={remove}
      />
      <ErrorNote error={error} title="The route was not deleted." />
    </>
  );
}

function NewRoute({ channels }: { channels: TenantChannel[] }) {
  const queryClient = useQueryClient();
  const blueprints = useQuery(blueprintQueries.list());
  const [bps, setBps] = useState<string[]>([]);
  const [entities, setEntities] = useState<PickedEntity[]>([]);
  const entityIds = entities.map((e) => e.id);
  const [states, setStates] = useState<string[]>([]);
  const [targets, setTargets] = useState<string[]>([]);
  const [escalateAfter, setEscalateAfter] = useState('');
  const [escalateTo, setEscalateTo] = useState<string[]>([]);
  const [groupBy, setGroupBy] = useState<Route['group_by']>('entity');
  const [groupWait, setGroupWait] = useState('0');
  const [groupInterval, setGroupInterval] = useState('300');
  const create = useMutation({
    mutationFn: () =>
      must(
        api.POST('/v1/notify/routes', {
          body: {
            match: {
              ...(bps.length ? { blueprint_slugs: bps } : {}),
              ...(entityIds.length ? { entity_ids: entityIds } : {}),
              ...(states.length ? { to_states: states as (typeof STATES)[number][] } : {}),
            },
            channel_ids: targets,
            ...(escalateAfter.trim() ? { escalate_after_seconds: Number(escalateAfter) } : {}),
            ...(escalateTo.length ? { escalate_channel_ids: escalateTo } : {}),
            group_by: groupBy,
            group_wait_seconds: Number(groupWait),
            group_interval_seconds: Number(groupInterval),
          },
        }),
      ),
    onSuccess: async () => {
      setBps([]);
      setEntities([]);
      setStates([]);
      setTargets([]);
      setEscalateAfter('');
      setEscalateTo([]);
      setGroupBy('entity');
      setGroupWait('0');
      setGroupInterval('300');
      await queryClient.invalidateQueries({ queryKey: routeKeys.all });
    },
  });
  const errs = fieldErrors(create.error);
  if (channels.length === 0)
    return <p className="muted">Create a shared channel first: routes send to them.</p>;
  return (
    <FormShell
      title="New route"
      send={create}
      submitLabel="Create route"
      failed="The route was not created."
      done={create.isSuccess ? <Notice>The route was created.</Notice> : null}
      before={
        <>
          <fieldset>
            <legend>Alerts of entities of these blueprints (none: any)</legend>
            {(blueprints.data ?? []).map((b) => (
              <CheckboxField
                key={b.slug}
                label={`Blueprint ${b.name}`}
                checked={bps.includes(b.slug)}
                onChange={(on) => setBps(toggled(bps, b.slug, on))}
              />
            ))}
          </fieldset>
          <RouteEntities
            chosen={entities}
            onChange={setEntities}
            error={
              errs['match.entity_ids'] ??
              Object.entries(errs).find(([k]) => k.startsWith('match.entity_ids.'))?.[1]
            }
          />
          <fieldset>
            <legend>Changing to (none: any state)</legend>
            {STATES.map((s) => (
              <CheckboxField
                key={s}
                label={`To ${s}`}
                checked={states.includes(s)}
                onChange={(on) => setStates(toggled(states, s, on))}
              />
            ))}
          </fieldset>
          <fieldset>
            <legend>Also send to</legend>
            {channels.map((c) => (
              <CheckboxField
                key={c.id}
                label={`Send to ${c.name}`}
                checked={targets.includes(c.id)}
                onChange={(on) => setTargets(toggled(targets, c.id, on))}
              />
            ))}
            {errs.channel_ids ? <span className="field-error">{errs.channel_ids}</span> : null}
          </fieldset>
        </>
      }
      after={
        <>
          <fieldset>
            <legend>Escalate to</legend>
            {channels.map((c) => (
              <CheckboxField
                key={c.id}
                label={`Escalate to ${c.name}`}
                checked={escalateTo.includes(c.id)}
                onChange={(on) => setEscalateTo(toggled(escalateTo, c.id, on))}
              />
            ))}
            {errs.escalate_channel_ids ? (
              <span className="field-error">{errs.escalate_channel_ids}</span>
            ) : null}
          </fieldset>
          <div className="form-grid">
            <SelectField
              label="Group by"
              value={groupBy}
              onChange={(v) => setGroupBy(v as Route['group_by'])}
              options={[
                { value: 'entity', label: 'Entity (each alert on its own)' },
                { value: 'blueprint', label: 'Blueprint (one notification per blueprint)' },
                { value: 'tenant', label: 'Everything (one notification)' },
              ]}
              hint="Alerts of one group go out together as one digest"
              error={errs.group_by}
            />
            <TextField
              label="Group wait (seconds)"
              type="number"
              value={groupWait}
              onChange={setGroupWait}
              hint="0 to 300: the first notification of a new group waits this long, collecting"
              error={errs.group_wait_seconds}
            />
            <TextField
              label="Group interval (seconds)"
              type="number"
              value={groupInterval}
              onChange={setGroupInterval}
              hint="60 to 3600: a group already notified gets its updates at most this often"
              error={errs.group_interval_seconds}
            />
          </div>
        </>
      }
    >
      <TextField
        label="Escalate after (seconds)"
        type="number"
        value={escalateAfter}
        onChange={setEscalateAfter}
        hint="Optional, 60 to 604800: an incident not acknowledged this long is sent once to the channels below"
        error={errs.escalate_after_seconds}
      />
    </FormShell>
  );
}
