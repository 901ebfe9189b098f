import { useState } from 'react';
import { fieldErrors } from '../api/client';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../ui/fields';
import { FormShell } from '../ui/form-shell';
import { AssertionsEditor } from './assertions-editor';
import { bodyOf, type CheckDraft, emptyDraft } from './check-draft';
import type { CheckConfigField, CheckType } from './check-types/form';
import { onSchedule, PushScheduleFields } from './check-types/push-schedule';
import { CREATABLE_CHECK_TYPES, checkTypeForm } from './check-types/registry';
import { type DraftRunAnswer, DraftRunButton } from './draft-run';
import { LocationPicker } from './location-picker';
import { TrustFields } from './tls-trust-fields';

/**
 * The create and edit form of a check: only the fields of its type (SPEC.md "Check" and
 * DECISIONS.md "Checks and state"), with the defaults as placeholders, and the API's
 * VALIDATION_ERROR details shown at the field they name.
 */

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The form itself; `onSubmit` gets the API body and throws the ApiError it answered. */
export function CheckForm({
  initial,
  editing,
  submitLabel,
  onSubmit,
  onTryRun,
  before,
}: {
  initial: CheckDraft;
  editing: boolean;
  submitLabel: string;
  onSubmit: (body: Record<string, unknown>) => Promise<unknown>;
  /** A new check's "Run now": the draft probed once, not saved (POST /v1/checks/run-draft). */
  onTryRun?: (body: Record<string, unknown>) => Promise<DraftRunAnswer>;
  before?: React.ReactNode;
}) {
  const [d, setD] = useState(initial);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const errs = fieldErrors(error);
  const set =
    <K extends keyof CheckDraft>(k: K) =>
    (v: CheckDraft[K]) =>
      setD((old) => ({ ...old, [k]: v }));
  const text = (
    k: keyof CheckDraft,
    label: string,
    opts: { placeholder?: string; hint?: string; path?: string; type?: string; required?: boolean } = {},
  ) => (
    <TextField
      label={label}
      value={d[k] as string}
      onChange={set(k) as (v: string) => void}
      placeholder={opts.placeholder}
      hint={opts.hint}
      type={opts.type}
      required={opts.required}
      error={errs[opts.path ?? k]}
    />
  );
  const submit = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await onSubmit(bodyOf(d, editing));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const t = d.check_type;
  const form = checkTypeForm(t);
  const pushed = form.kind === 'push';
  const intervalHint = pushed
    ? 'How often your agent reports; match its cadence'
    : 'How often to run the check';
  const configInput = (f: CheckConfigField) => {
    const path = `config.${f.key}`;
    const value = d.config[f.key] ?? '';
    const onChange = (v: string) => setD((old) => ({ ...old, config: { ...old.config, [f.key]: v } }));
    if (f.kind === 'json') {
      const placeholder = typeof f.placeholder === 'function' ? f.placeholder(d) : f.placeholder;
      return (
        <TextAreaField
          key={f.key}
          label={f.label}
          value={value}
          onChange={onChange}
          rows={8}
          hint={`${f.hint ?? ''}${placeholder ? ` For example: ${placeholder}` : ''}`}
          required={f.required}
          error={errs[path]}
        />
      );
    }
    if (f.kind === 'select') {
      return (
        <SelectField
          key={f.key}
          label={f.label}
          value={value}
          onChange={onChange}
          options={f.options ?? []}
          error={errs[path]}
        />
      );
    }
    return (
      <TextField
        key={f.key}
        label={f.label}
        value={value}
        onChange={onChange}
        placeholder={typeof f.placeholder === 'function' ? f.placeholder(d) : f.placeholder}
        hint={f.hint}
        type={f.kind === 'number' ? 'number' : undefined}
        required={f.required}
        error={errs[path]}
      />
    );
  };
  return (
    <FormShell
      title={`${t} check`}
      heading={false}
      onSubmit={submit}
      send={{ isPending: busy, error }}
      submitLabel={submitLabel}
      failed={editing ? 'The check was not saved.' : 'The check was not created.'}
      buttons={onTryRun && !pushed ? <DraftRunButton body={() => bodyOf(d, editing)} run={onTryRun} /> : null}
      before={
        <>
          {before}
          {!editing ? (
            <SelectField
              label="Check type"
              value={t}
              onChange={(v) =>
                setD((old) => ({
                  ...old,
                  check_type: v as CheckType,
                  // Inputs two types share (a host) are kept; the new type's defaults fill the rest.
                  config: { ...emptyDraft(v as CheckType).config, ...old.config },
                }))
              }
              options={CREATABLE_CHECK_TYPES.map((c) => ({ value: c, label: checkTypeForm(c).label }))}
              error={errs.check_type}
            />
          ) : null}
          {text('name', 'Name', {
            placeholder: form.nameExample,
            hint: 'What alerts and lists call this check; leave it blank to name it after its target',
          })}
        </>
      }
      after={
        <>
          {form.kind === 'http' ? (
            <>
              <TextAreaField
                label="Headers"
                value={d.headers}
                onChange={set('headers')}
                rows={3}
                hint="One per line, Name: value. Stored values read ******** and are kept while the URL and method stay the same; type them again after changing either."
                error={errs.headers ?? Object.entries(errs).find(([p]) => p.startsWith('headers.'))?.[1]}
              />
              {d.method !== 'GET' && d.method !== 'HEAD' ? (
                <TextAreaField
                  label="Request body"
                  value={d.body}
                  onChange={set('body')}
                  rows={3}
                  error={errs.body}
                />
              ) : null}
              <AssertionsEditor rows={d.assertions} onChange={set('assertions')} errors={errs} />
            </>
          ) : null}
          {form.tls ? <TrustFields draft={d.trust} onChange={set('trust')} errors={errs} /> : null}
          {pushed ? null : (
            <LocationPicker
              chosen={d.locations}
              quorum={d.quorum}
              onChosen={set('locations')}
              onQuorum={set('quorum')}
              errors={errs}
            />
          )}
          {!editing ? <CheckboxField label="Enabled" checked={d.enabled} onChange={set('enabled')} /> : null}
        </>
      }
    >
      {form.kind === 'http' ? (
        <>
          {text('target_url', 'Target URL', {
            placeholder: 'https://example.com/healthz',
            hint: 'Full URL including scheme',
            type: 'url',
            required: true,
          })}
          <SelectField
            label="Method"
            value={d.method}
            onChange={set('method')}
            options={METHODS}
            error={errs.method}
          />
          {text('expected_status', 'Expected status', { placeholder: '200', type: 'number' })}
          {text('expected_statuses', 'Accepted statuses', {
            placeholder: '200-299, 304',
            hint: 'Codes and ranges that count as success; when set, the expected status is its first code',
          })}
          {text('body_contains', 'Body contains', {
            hint: 'Text the response body must contain (empty: any body)',
          })}
        </>
      ) : null}
      {pushed ? null : form.fields.map(configInput)}
      {pushed ? (
        <PushScheduleFields
          config={d.config}
          onChange={(patch) => setD((old) => ({ ...old, config: { ...old.config, ...patch } }))}
          errs={errs}
        />
      ) : null}
      {pushed && onSchedule(d.config)
        ? null
        : text('interval_seconds', 'Interval (seconds)', {
            type: 'number',
            placeholder: '60',
            hint: intervalHint,
          })}
      {/* A push check's grace and run duration follow its schedule. */}
      {pushed ? form.fields.map(configInput) : null}
      {!pushed ? text('timeout_ms', 'Timeout (ms)', { type: 'number', placeholder: '5000' }) : null}
      {!pushed
        ? text('degraded_latency_ms', 'Degraded above (ms)', {
            type: 'number',
            hint: 'A success slower than this makes the check degraded (empty: never)',
          })
        : null}
      {text('failure_threshold', 'Failure threshold', {
        type: 'number',
        placeholder: pushed && !editing ? '1' : '3',
        hint: pushed
          ? 'Consecutive failures before it is down; 1 suits push checks'
          : 'Consecutive failures before it is down',
      })}
      {text('success_threshold', 'Success threshold', {
        type: 'number',
        placeholder: '1',
        hint: 'Consecutive successes before a down or degraded check recovers (1 to 10)',
      })}
      {text('slo_target', 'SLO target', {
        placeholder: '0.999',
        hint: 'Share of results that should succeed, between 0 and 1 (0.999 is 99.9 %); blank: none',
      })}
    </FormShell>
  );
}
