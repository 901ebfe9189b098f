import { CheckboxField, TextAreaField, TextField } from '../ui/fields';
import { fromLocalInput, type MaintenanceWindow, toLocalInput } from './words';

/**
 * The window's status-page notice in the form: whether the pages that show a covered entity list
 * it, from when (a one-off window's time, or how many hours before each run of a recurring one),
 * and the note they show. The API checks every rule (announce_from at or before the start, the
 * note's length) and its 400 names the field.
 */

export interface NoticeDraft {
  announce: boolean;
  /** `datetime-local` text; empty: as soon as it is saved. */
  announceFrom: string;
  /** Hours before each run of a recurring window; empty: the API's default (a day). */
  leadHours: string;
  publicNote: string;
}

export function noticeOf(w: MaintenanceWindow | undefined): NoticeDraft {
  return {
    announce: w?.announce ?? false,
    announceFrom: w?.announce_from ? toLocalInput(Date.parse(w.announce_from)) : '',
    leadHours: w?.announce_lead_seconds == null ? '' : String(w.announce_lead_seconds / 3600),
    publicNote: w?.public_note ?? '',
  };
}

/** The notice's part of the API body for a window of `kind`. */
export function noticeBody(n: NoticeDraft, kind: 'one-off' | 'recurring') {
  const from = fromLocalInput(n.announceFrom);
  const lead = n.leadHours.trim();
  return {
    announce: n.announce,
    public_note: n.publicNote,
    ...(kind === 'one-off' && from !== '' ? { announce_from: from } : {}),
    ...(kind === 'recurring' && lead !== ''
      ? { announce_lead_seconds: Math.round(Number(lead) * 3600) }
      : {}),
  };
}

export function NoticeFields({
  notice,
  kind,
  onChange,
  errs,
}: {
  notice: NoticeDraft;
  kind: 'one-off' | 'recurring';
  onChange: (notice: NoticeDraft) => void;
  errs: Record<string, string>;
}) {
  const set = (patch: Partial<NoticeDraft>) => onChange({ ...notice, ...patch });
  return (
    <fieldset>
      <legend>Status pages</legend>
      <CheckboxField
        label="Announce on status pages"
        checked={notice.announce}
        onChange={(announce) => set({ announce })}
        hint="Pages that show a covered entity list the window ahead, while it is on, and for 24 hours after"
        error={errs.announce}
      />
      <div className="form-grid">
        {kind === 'one-off' ? (
          <TextField
            label="Announce from"
            type="datetime-local"
            value={notice.announceFrom}
            onChange={(announceFrom) => set({ announceFrom })}
            hint="Your local time, at or before the start; empty: as soon as it is saved"
            error={errs.announce_from}
          />
        ) : (
          <TextField
            label="Announce ahead (hours)"
            type="number"
            value={notice.leadHours}
            onChange={(leadHours) => set({ leadHours })}
            hint="Each run is shown this long before it starts: 0 to 720; empty: 24"
            error={errs.announce_lead_seconds}
          />
        )}
      </div>
      <TextAreaField
        label="Public note"
        value={notice.publicNote}
        onChange={(publicNote) => set({ publicNote })}
        hint="Shown on the pages with the window: Markdown (paragraphs, emphasis, lists, links, code), up to 2,000 characters"
        error={errs.public_note}
      />
    </fieldset>
  );
}
