import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, fieldErrors, must } from '../api/client';
import { ErrorNote, Notice } from '../ui/feedback';
import { TextAreaField } from '../ui/fields';
import { incidentsChanged } from './queries';
import { type IncidentDetail, NOTE_MAX_BYTES, noteBytes } from './words';

/**
 * The write controls of an incident (members; read-only keys never see them): acknowledge, which
 * stops repeats and escalation, and add a note. Both refresh every incident read on success.
 */

/** Acknowledges an open incident. */
export function AcknowledgeButton({ incident }: { incident: IncidentDetail }) {
  const queryClient = useQueryClient();
  const ack = useMutation({
    mutationFn: () =>
      must(
        api.POST('/v1/incidents/{incident_id}/acknowledge', {
          params: { path: { incident_id: incident.id } },
        }),
      ),
    onSettled: () => incidentsChanged(queryClient),
  });
  return (
    <>
      <button type="button" className="primary" disabled={ack.isPending} onClick={() => ack.mutate()}>
        {ack.isPending ? 'Acknowledging…' : 'Acknowledge'}
      </button>
      <ErrorNote error={ack.error} title="The incident was not acknowledged." />
    </>
  );
}

/** Adds a note (at most 4 KB); the API's 400 shows at the field, its 409 (200 notes) above the button. */
export function NoteForm({ incidentId }: { incidentId: string }) {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [added, setAdded] = useState(false);
  const add = useMutation({
    mutationFn: (body: { text: string }) =>
      must(
        api.POST('/v1/incidents/{incident_id}/notes', {
          params: { path: { incident_id: incidentId } },
          body,
        }),
      ),
    onSuccess: async () => {
      setText('');
      setAdded(true);
      await incidentsChanged(queryClient);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setAdded(false);
    add.mutate({ text });
  };
  const bytes = noteBytes(text);
  return (
    <form onSubmit={submit} aria-label="Add a note">
      <TextAreaField
        label="Note"
        value={text}
        onChange={(v) => {
          setText(v);
          setAdded(false);
        }}
        required
        error={fieldErrors(add.error).text}
        hint={`What was found or done, for whoever reads this incident next. ${bytes.toLocaleString()} of ${NOTE_MAX_BYTES.toLocaleString()} bytes.`}
      />
      <div className="row">
        <button type="submit" disabled={add.isPending}>
          {add.isPending ? 'Adding…' : 'Add note'}
        </button>
      </div>
      <ErrorNote error={add.error} title="The note was not added." />
      {added ? <Notice>The note was added.</Notice> : null}
    </form>
  );
}
