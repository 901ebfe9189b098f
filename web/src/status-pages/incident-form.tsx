import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, fieldErrors, must } from '../api/client';
import { fromLocalInput } from '../maintenance/words';
import { Notice } from '../ui/feedback';
import { CheckboxField, SelectField, TextField } from '../ui/fields';
import { FormShell } from '../ui/form-shell';
import { type Impact, ImpactFields } from './incident-impact';
import { BodyField } from './incident-preview';
import { type IncidentStatus, STATUS_WORDS, STATUSES } from './incident-words';
import { pageIncidentsChanged, type StatusPageRecord } from './queries';

/**
 * Writes a new incident on a page, always as a draft (POST …/incidents with draft: true): the
 * public page shows it once published from the list. Title, impact per entity, the first
 * update's status, Markdown body (previewed) and notify flag, and for the record a past start and
 * end (a backfilled incident, resolved). The form checks nothing the API checks: its refusals show
 * at the fields they name.
 */

interface Draft {
  title: string;
  impact: Impact;
  status: IncidentStatus;
  body: string;
  notify: boolean;
  startedAt: string;
  resolvedAt: string;
}

const EMPTY: Draft = {
  title: '',
  impact: [],
  status: 'investigating',
  body: '',
  notify: false,
  startedAt: '',
  resolvedAt: '',
};

const STATUS_OPTIONS = STATUSES.map((s) => ({ value: s, label: STATUS_WORDS[s] }));

export function IncidentForm({
  page,
  onCreated,
}: {
  page: StatusPageRecord;
  onCreated: (id: string) => void;
}) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(EMPTY);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const save = useMutation({
    mutationFn: () =>
      must(
        api.POST('/v1/status-pages/{slug}/incidents', {
          params: { path: { slug: page.slug } },
          body: {
            title: draft.title,
            impact: draft.impact,
            status: draft.status,
            body: draft.body,
            notify: draft.notify,
            draft: true,
            // An unreadable time is sent as written, so the API names the field.
            ...(draft.startedAt ? { started_at: fromLocalInput(draft.startedAt) || draft.startedAt } : {}),
            ...(draft.resolvedAt
              ? { resolved_at: fromLocalInput(draft.resolvedAt) || draft.resolvedAt }
              : {}),
          },
        }),
      ),
    onSuccess: async (made) => {
      setDraft(EMPTY);
      await pageIncidentsChanged(queryClient, page.slug);
      onCreated(made.id);
    },
  });
  const errs = fieldErrors(save.error);
  return (
    <FormShell
      title="New incident"
      heading={false}
      grid={false}
      send={save}
      submitLabel="Save draft"
      failed="The incident was not saved."
      done={
        save.isSuccess ? (
          <Notice>
            The draft {save.data.title} was saved. Publish it from the list when it reads right.
          </Notice>
        ) : null
      }
    >
      <TextField
        label="Title"
        value={draft.title}
        onChange={(title) => set({ title })}
        required
        placeholder="Slow checkout"
        error={errs.title}
      />
      <ImpactFields page={page} impact={draft.impact} onChange={(impact) => set({ impact })} errs={errs} />
      <SelectField
        label="Status"
        value={draft.status}
        onChange={(status) => set({ status: status as IncidentStatus })}
        options={STATUS_OPTIONS}
        hint="The first update’s status. Later updates move it forward only."
        error={errs.status}
      />
      <BodyField
        slug={page.slug}
        label="First update"
        value={draft.body}
        onChange={(body) => set({ body })}
        error={errs.body}
      />
      <CheckboxField
        label="Notify subscribers of this update"
        checked={draft.notify}
        onChange={(notify) => set({ notify })}
        hint="Tells every confirmed subscriber of an impacted component (or of all of them), by e-mail or webhook, once the update is published."
      />
      <fieldset>
        <legend>For the record (optional)</legend>
        <p className="muted">
          A past incident written afterwards: when it started and, with status Resolved, when it ended.
        </p>
        <div className="form-grid">
          <TextField
            label="Started at"
            type="datetime-local"
            value={draft.startedAt}
            onChange={(startedAt) => set({ startedAt })}
            hint="Now when empty."
            error={errs.started_at}
          />
          <TextField
            label="Resolved at"
            type="datetime-local"
            value={draft.resolvedAt}
            onChange={(resolvedAt) => set({ resolvedAt })}
            hint="Only for status Resolved; now when empty."
            error={errs.resolved_at}
          />
        </div>
      </fieldset>
    </FormShell>
  );
}
