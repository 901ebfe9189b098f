import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, fieldErrors, must } from '../api/client';
import { Notice } from '../ui/feedback';
import { CheckboxField, SelectField, TextField } from '../ui/fields';
import { FormShell } from '../ui/form-shell';
import { type Impact, ImpactFields } from './incident-impact';
import { BodyField } from './incident-preview';
import { type IncidentStatus, nextStatuses, STATUS_WORDS } from './incident-words';
import { type PageIncident, pageIncidentsChanged, type StatusPageRecord } from './queries';

/**
 * The two changes of a written incident: its title and impact (PATCH), and a further update
 * (POST …/updates) whose status picker offers only the current status and the later ones.
 */

export function EditIncidentForm({ page, incident }: { page: StatusPageRecord; incident: PageIncident }) {
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(incident.title);
  const [impact, setImpact] = useState<Impact>(incident.impact);
  const save = useMutation({
    mutationFn: () =>
      must(
        api.PATCH('/v1/status-pages/{slug}/incidents/{incident_id}', {
          params: { path: { slug: page.slug, incident_id: incident.id } },
          body: { title, impact },
        }),
      ),
    onSuccess: () => pageIncidentsChanged(queryClient, page.slug),
  });
  const errs = fieldErrors(save.error);
  const submit = () => {
    save.mutate();
  };
  return (
    <FormShell
      title={`Edit ${incident.title}`}
      heading={false}
      grid={false}
      primary={false}
      onSubmit={submit}
      send={save}
      submitLabel="Save title and impact"
      failed="The incident was not saved."
      done={save.isSuccess ? <Notice>The title and impact were saved.</Notice> : null}
    >
      <TextField label="Title" value={title} onChange={setTitle} required error={errs.title} />
      <ImpactFields page={page} impact={impact} onChange={setImpact} errs={errs} />
    </FormShell>
  );
}

export function UpdateForm({ slug, incident }: { slug: string; incident: PageIncident }) {
  const queryClient = useQueryClient();
  const offered = nextStatuses(incident.status);
  const [status, setStatus] = useState<IncidentStatus>(offered[0] ?? 'resolved');
  const [body, setBody] = useState('');
  const [notify, setNotify] = useState(false);
  const post = useMutation({
    mutationFn: () =>
      must(
        api.POST('/v1/status-pages/{slug}/incidents/{incident_id}/updates', {
          params: { path: { slug, incident_id: incident.id } },
          body: { status, body, notify },
        }),
      ),
    onSuccess: async (next) => {
      setBody('');
      setNotify(false);
      setStatus(nextStatuses(next.status)[0] ?? 'resolved');
      await pageIncidentsChanged(queryClient, slug);
    },
  });
  const errs = fieldErrors(post.error);
  if (offered.length === 0) return <p className="muted">The incident is resolved: no update follows it.</p>;
  const submit = () => {
    post.mutate();
  };
  return (
    <FormShell
      title={`Post an update to ${incident.title}`}
      heading={false}
      grid={false}
      onSubmit={submit}
      send={post}
      submitLabel="Post update"
      failed="The update was not posted."
      done={post.isSuccess ? <Notice>The update was posted.</Notice> : null}
    >
      <SelectField
        label="Status"
        value={status}
        onChange={(s) => setStatus(s as IncidentStatus)}
        options={offered.map((s) => ({ value: s, label: STATUS_WORDS[s] }))}
        hint={`Now ${STATUS_WORDS[incident.status]}: a status moves forward only, and Resolved ends the incident.`}
        error={errs.status}
      />
      <BodyField slug={slug} label="Update" value={body} onChange={setBody} error={errs.body} />
      <CheckboxField
        label="Notify subscribers of this update"
        checked={notify}
        onChange={setNotify}
        hint="Tells every confirmed subscriber of an impacted component (or of all of them), by e-mail or webhook, once the update is published."
      />
    </FormShell>
  );
}
