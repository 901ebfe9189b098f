import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { fieldErrors, type Schemas } from '../api/client';
import { checkQueries } from '../checks/queries';
import { ErrorNote } from '../ui/feedback';
import { SelectField, TextAreaField, TextField } from '../ui/fields';
import { objectToPairs, type Pair, PairsEditor, pairsToObject } from './pairs-editor';

/**
 * The action form (create and edit, admin only). Stored header values come back as ********;
 * they are sent back as they are, which the API reads as "keep the stored secret", so editing
 * another field never wipes them. Removing a header row removes that header.
 */

type Action = Schemas['Action'];
/**
 * Each shape without the fields it may only send as null: the API client's body type (openapi-fetch)
 * takes a field whose type is null alone for a read-only one and refuses it.
 */
type Present<T> = T extends unknown
  ? { [K in keyof T as [NonNullable<T[K]>] extends [never] ? never : K]: T[K] }
  : never;

/**
 * What the form sends: a create body (one shape per trigger type, the others' fields absent) and
 * an update body (the others' fields null, since a PUT keeps the fields it does not name).
 */
export interface ActionBodies {
  create: Present<Schemas['ActionInput']>;
  update: Schemas['ActionUpdate'];
}

const METHODS = ['POST', 'GET', 'PUT', 'PATCH', 'DELETE'] as const;
const TRIGGERS = [
  { value: 'manual', label: 'Manual (run by hand)' },
  { value: 'state_change', label: 'State change of a check’s entity' },
  { value: 'schedule', label: 'Schedule' },
] as const;

interface Draft {
  name: string;
  url: string;
  method: Schemas['ActionInput']['method'];
  headers: Pair[];
  body_template: string;
  trigger_type: (typeof TRIGGERS)[number]['value'];
  check_id: string;
  trigger_to_state: string;
  interval_seconds: string;
  timeout_ms: string;
  pipeline_timeout_seconds: string;
}

function toDraft(a: Action | undefined): Draft {
  return {
    name: a?.name ?? '',
    url: a?.url ?? '',
    method: a?.method ?? 'POST',
    headers: objectToPairs(a?.headers),
    body_template: a?.body_template ?? '',
    trigger_type: a?.trigger_type ?? 'manual',
    check_id: a?.check_id ?? '',
    trigger_to_state: a?.trigger_to_state ?? '',
    interval_seconds: a?.interval_seconds ? String(a.interval_seconds) : '300',
    timeout_ms: String(a?.timeout_ms ?? 10000),
    pipeline_timeout_seconds: String(a?.pipeline_timeout_seconds ?? 3600),
  };
}

/** The bodies of the draft's trigger type: each type sends its own field and clears the others'. */
function toBodies(d: Draft): ActionBodies {
  const state = d.trigger_to_state as 'down' | 'degraded' | 'up' | '';
  const common = {
    name: d.name,
    url: d.url,
    method: d.method,
    headers: pairsToObject(d.headers),
    body_template: d.body_template,
    timeout_ms: Number(d.timeout_ms),
    pipeline_timeout_seconds: Number(d.pipeline_timeout_seconds),
  };
  const create: ActionBodies['create'] =
    d.trigger_type === 'state_change'
      ? { ...common, trigger_type: 'state_change', check_id: d.check_id, trigger_to_state: state || null }
      : d.trigger_type === 'schedule'
        ? { ...common, trigger_type: 'schedule', interval_seconds: Number(d.interval_seconds) }
        : { ...common, trigger_type: 'manual' };
  return { create, update: { check_id: null, trigger_to_state: null, interval_seconds: null, ...create } };
}

/** Create or edit an action; `onSubmit` sends the body and throws the API's error. */
export function ActionForm({
  action,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  action?: Action;
  submitLabel: string;
  onSubmit: (bodies: ActionBodies) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const [d, setD] = useState<Draft>(() => toDraft(action));
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const checks = useQuery({
    ...checkQueries.list(),
    enabled: d.trigger_type === 'state_change',
  });
  const set =
    <K extends keyof Draft>(k: K) =>
    (v: Draft[K]) =>
      setD((old) => ({ ...old, [k]: v }));
  const errs = fieldErrors(error);
  const headerErr = Object.entries(errs)
    .filter(([p]) => p === 'headers' || p.startsWith('headers.'))
    .map(([p, m]) => `${p}: ${m}`)
    .join('; ');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await onSubmit(toBodies(d));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const checkOptions = [
    { value: '', label: checks.isLoading ? 'Loading checks…' : 'Choose a check' },
    ...(checks.data ?? []).map((c) => ({
      value: c.id,
      label: `${c.name} (${c.blueprint_slug}/${c.entity_slug})`,
    })),
  ];

  return (
    <form className="action-form" onSubmit={submit} aria-label={submitLabel}>
      <div className="form-grid">
        <TextField label="Name" value={d.name} onChange={set('name')} error={errs.name} required />
        <SelectField
          label="Method"
          value={d.method}
          onChange={(v) => set('method')(v as Draft['method'])}
          options={METHODS}
          error={errs.method}
        />
      </div>
      <TextField
        label="URL"
        value={d.url}
        onChange={set('url')}
        error={errs.url}
        required
        placeholder="https://ops.example.com/restart/{{entity_id}}"
        hint="http or https; {{placeholders}} are filled when the action runs."
      />
      <PairsEditor
        legend="Headers"
        what="Header"
        pairs={d.headers}
        onChange={set('headers')}
        error={headerErr || undefined}
        hint="Put secrets here: stored values read ********; leave ******** to keep the stored value (while the URL and method stay the same), or type a new one."
      />
      <TextAreaField
        label="Body template"
        value={d.body_template}
        onChange={set('body_template')}
        error={errs.body_template}
        rows={5}
        hint="Optional; {{placeholders}} such as {{entity_name}}, {{to_state}}, {{execution_id}} or your own run variables. Empty sends no body."
      />
      <div className="form-grid">
        <SelectField
          label="Trigger"
          value={d.trigger_type}
          onChange={(v) => set('trigger_type')(v as Draft['trigger_type'])}
          options={TRIGGERS}
          error={errs.trigger_type}
        />
        {d.trigger_type === 'state_change' ? (
          <>
            <SelectField
              label="Check"
              value={d.check_id}
              onChange={set('check_id')}
              options={checkOptions}
              error={errs.check_id}
              hint="Fires when this check’s entity changes state."
            />
            <SelectField
              label="On state"
              value={d.trigger_to_state}
              onChange={set('trigger_to_state')}
              options={[{ value: '', label: 'any change' }, 'down', 'degraded', 'up']}
              error={errs.trigger_to_state}
            />
          </>
        ) : null}
        {d.trigger_type === 'schedule' ? (
          <TextField
            label="Every (seconds)"
            type="number"
            value={d.interval_seconds}
            onChange={set('interval_seconds')}
            error={errs.interval_seconds}
            hint="At least 60."
          />
        ) : null}
        <TextField
          label="Timeout (ms)"
          type="number"
          value={d.timeout_ms}
          onChange={set('timeout_ms')}
          error={errs.timeout_ms}
          hint="100 to 15,000."
        />
        <TextField
          label="Pipeline deadline (seconds)"
          type="number"
          value={d.pipeline_timeout_seconds}
          onChange={set('pipeline_timeout_seconds')}
          error={errs.pipeline_timeout_seconds}
          hint="60 to 86,400: a pipeline with no final status by then is marked failed."
        />
      </div>
      <ErrorNote error={checks.error} title="The checks could not be loaded." />
      <ErrorNote error={error} title="The action was not saved." />
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Saving…' : submitLabel}
        </button>
        {onCancel ? (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
