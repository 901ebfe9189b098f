import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, fieldErrors, must } from '../api/client';
import { Notice } from '../ui/feedback';
import { SelectField, TextField } from '../ui/fields';
import { FormShell } from '../ui/form-shell';
import { type Cover, CoverFields } from './cover-fields';
import { type NoticeDraft, NoticeFields, noticeBody, noticeOf } from './notice-fields';
import { windowsChanged } from './queries';
import {
  fromLocalInput,
  type MaintenanceWindow,
  readerTimeZone,
  timeZoneSuggestions,
  toLocalInput,
} from './words';

/**
 * Creates a window (POST /v1/maintenance) or replaces one (PUT, the whole window). The form
 * checks nothing the API checks: the API's 400 names the field (`timezone`, `cron`, `ends_at`,
 * `entity_ids.0`, ...) and the message shows there.
 */

type Kind = 'one-off' | 'recurring';

interface Draft {
  name: string;
  kind: Kind;
  startsAt: string;
  endsAt: string;
  cron: string;
  durationMinutes: string;
  timezone: string;
  cover: Cover;
  notice: NoticeDraft;
}

const HOUR_MS = 3_600_000;

/** A new window starts now and lasts an hour; an edited one starts as it is. */
function draftOf(w: MaintenanceWindow | undefined, nowMs: number): Draft {
  const start = Math.floor(nowMs / 60_000) * 60_000;
  return {
    name: w?.name ?? '',
    kind: w?.cron ? 'recurring' : 'one-off',
    startsAt: toLocalInput(w?.starts_at ? Date.parse(w.starts_at) : start),
    endsAt: toLocalInput(w?.ends_at ? Date.parse(w.ends_at) : start + HOUR_MS),
    cron: w?.cron ?? '',
    durationMinutes: w?.duration_seconds ? String(w.duration_seconds / 60) : '60',
    timezone: w?.timezone ?? readerTimeZone(),
    cover: {
      entities: w?.entities ?? [],
      blueprintSlugs: w?.blueprint_slugs ?? [],
      includeDependents: w?.include_dependents ?? false,
    },
    notice: noticeOf(w),
  };
}

/** The API body of a draft: only the fields of its kind, and none left empty (the API says what is missing). */
function bodyOf(d: Draft) {
  const given = <K extends string, V>(key: K, value: V | '') => (value === '' ? {} : { [key]: value });
  const schedule =
    d.kind === 'one-off'
      ? { ...given('starts_at', fromLocalInput(d.startsAt)), ...given('ends_at', fromLocalInput(d.endsAt)) }
      : {
          ...given('cron', d.cron.trim()),
          ...given('duration_seconds', d.durationMinutes.trim() === '' ? '' : Number(d.durationMinutes) * 60),
          ...given('timezone', d.timezone.trim()),
        };
  return {
    name: d.name,
    entity_ids: d.cover.entities.map((e) => e.id),
    blueprint_slugs: d.cover.blueprintSlugs,
    include_dependents: d.cover.includeDependents,
    ...schedule,
    ...noticeBody(d.notice, d.kind),
  };
}

export function WindowForm({ editing, onDone }: { editing?: MaintenanceWindow; onDone?: () => void }) {
  const queryClient = useQueryClient();
  const zones = useId();
  const [draft, setDraft] = useState(() => draftOf(editing, Date.now()));
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const save = useMutation({
    mutationFn: () => {
      // The body is built from what the form holds; the API validates it (and types its answer).
      const body = bodyOf(draft) as never;
      return editing
        ? must(api.PUT('/v1/maintenance/{id}', { params: { path: { id: editing.id } }, body }))
        : must(api.POST('/v1/maintenance', { body }));
    },
    onSuccess: async () => {
      if (!editing) setDraft(draftOf(undefined, Date.now()));
      await windowsChanged(queryClient);
      onDone?.();
    },
  });
  const errs = fieldErrors(save.error);
  const label = editing ? `Edit ${editing.name}` : 'New maintenance window';
  return (
    <FormShell
      title={label}
      heading={false}
      send={save}
      submitLabel={editing ? 'Save window' : 'Create window'}
      failed={editing ? 'The window was not saved.' : 'The window was not created.'}
      done={!editing && save.isSuccess ? <Notice>The window {save.data.name} was created.</Notice> : null}
      buttons={
        onDone ? (
          <button type="button" onClick={onDone}>
            Cancel
          </button>
        ) : null
      }
      after={
        <>
          {draft.kind === 'one-off' ? (
            <div className="form-grid">
              <TextField
                label="Starts"
                type="datetime-local"
                value={draft.startsAt}
                onChange={(startsAt) => set({ startsAt })}
                required
                hint="Your local time"
                error={errs.starts_at}
              />
              <TextField
                label="Ends"
                type="datetime-local"
                value={draft.endsAt}
                onChange={(endsAt) => set({ endsAt })}
                required
                hint="Your local time"
                error={errs.ends_at}
              />
            </div>
          ) : (
            <div className="form-grid">
              <TextField
                label="Cron"
                value={draft.cron}
                onChange={(cron) => set({ cron })}
                required
                placeholder="0 2 * * 0"
                hint="5 fields: minute hour day-of-month month day-of-week, read in the timezone below (0 2 * * 0: Sundays at 02:00)"
                error={errs.cron}
              />
              <TextField
                label="Duration (minutes)"
                type="number"
                value={draft.durationMinutes}
                onChange={(durationMinutes) => set({ durationMinutes })}
                required
                hint="How long each run lasts: 1 minute to a week (10080)"
                error={errs.duration_seconds}
              />
              <TextField
                label="Timezone"
                value={draft.timezone}
                onChange={(timezone) => set({ timezone })}
                list={zones}
                hint="An IANA name such as Europe/Berlin; daylight saving time is followed"
                error={errs.timezone}
              />
              <datalist id={zones}>
                {timeZoneSuggestions().map((z) => (
                  <option key={z} value={z} />
                ))}
              </datalist>
            </div>
          )}
          <CoverFields cover={draft.cover} onChange={(cover) => set({ cover })} errs={errs} />
          <NoticeFields
            notice={draft.notice}
            kind={draft.kind}
            onChange={(notice) => set({ notice })}
            errs={errs}
          />
        </>
      }
    >
      <TextField
        label="Name"
        value={draft.name}
        onChange={(name) => set({ name })}
        required
        placeholder="Database upgrade"
        hint="Skipped alerts name it: maintenance: <name>"
        error={errs.name}
      />
      <SelectField
        label="Schedule"
        value={draft.kind}
        onChange={(kind) => set({ kind: kind as Kind })}
        options={[
          { value: 'one-off', label: 'Once, from a start to an end' },
          { value: 'recurring', label: 'Recurring, on a cron schedule' },
        ]}
      />
    </FormShell>
  );
}
