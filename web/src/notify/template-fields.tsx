import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api, fieldErrors, must, type Schemas } from '../api/client';
import type { paths } from '../api/schema';
import { TextAreaField, TextField } from '../ui/fields';
import { useSettled } from '../ui/settled';
import { templateKeys } from './queries';

/**
 * A channel's optional message template (docs/notifications.md "Message templates"): a title and a
 * body over the alert's fields, previewed as typed with the made-up event of
 * POST /v1/notify/template-preview, whose refusals show at the fields as they would on save.
 */

export type MessageTemplate = Schemas['MessageTemplate'];
type PreviewBody = paths['/v1/notify/template-preview']['post']['requestBody']['content']['application/json'];
/** The channel types that take a template (the preview route's list). */
type TemplateChannelType = PreviewBody['channel_type'];

/** How long typing pauses before the preview is asked for. */
const DEBOUNCE_MS = 400;

/** The fields' state (from a stored channel's template for an edit) and the template they make. */
export function useTemplate(initial?: MessageTemplate | null) {
  const [title, setTitle] = useState(initial?.title ?? '');
  const [body, setBody] = useState(initial?.body ?? '');
  /** The template to send, or null when both fields are empty (no template). */
  const value = (): MessageTemplate | null => {
    if (title.trim() === '' && body.trim() === '') return null;
    return { ...(title.trim() ? { title } : {}), ...(body.trim() ? { body } : {}) } as MessageTemplate;
  };
  const changed = () => title !== (initial?.title ?? '') || body !== (initial?.body ?? '');
  const reset = () => {
    setTitle('');
    setBody('');
  };
  return { title, setTitle, body, setBody, value, changed, reset };
}
export type TemplateState = ReturnType<typeof useTemplate>;

/** "Message template (optional)": title, body and the live preview, with the API's errors at each field. */
export function TemplateFields({
  t,
  channelType,
  errs,
}: {
  t: TemplateState;
  channelType: string;
  errs: Record<string, string | undefined>;
}) {
  // Settled as text (t.value() is a new object each render): settling the object rendered the form
  // again every DEBOUNCE_MS for as long as it was open (seen: 20 renders in 4 s of an idle form).
  const settled = useSettled(JSON.stringify(t.value()), DEBOUNCE_MS);
  const template = useMemo(() => JSON.parse(settled) as MessageTemplate | null, [settled]);
  const preview = useQuery({
    queryKey: templateKeys.preview(channelType, template),
    queryFn: () =>
      must(
        api.POST('/v1/notify/template-preview', {
          // The form offers the fields only for types that take a template (ChannelForm.templates).
          body: { channel_type: channelType as TemplateChannelType, template: template as MessageTemplate },
        }),
      ),
    enabled: template !== null,
    retry: false,
    placeholderData: keepPreviousData,
  });
  const previewErrs = preview.isError ? fieldErrors(preview.error) : {};
  const shown = template !== null && !preview.isError ? preview.data : undefined;
  return (
    <fieldset className="template-fields">
      <legend>Message template (optional)</legend>
      <p className="muted">
        Your own title and text instead of Vigil’s, with fields such as {'{{entity_name}}'}, {'{{to_state}}'},{' '}
        {'{{check_name}}'}, {'{{reason}}'}, {'{{last_error}}'} and {'{{link}}'};{' '}
        {'{{#last_error}}…{{/last_error}}'} keeps its text only when there is an error. Leave both empty for
        Vigil’s message.
      </p>
      <TextField
        label="Title template"
        value={t.title}
        onChange={t.setTitle}
        placeholder="[{{to_state}}] {{entity_name}}"
        error={
          errs['template.title'] ?? previewErrs['template.title'] ?? errs.template ?? previewErrs.template
        }
      />
      <TextAreaField
        label="Body template"
        value={t.body}
        onChange={t.setBody}
        rows={4}
        error={errs['template.body'] ?? previewErrs['template.body']}
      />
      {shown ? (
        <div className="template-preview" role="status" aria-label="Template preview">
          <p className="muted">Preview with a made-up event (Checkout API goes down):</p>
          <p>
            <strong className="template-preview-title">{shown.title}</strong>
          </p>
          <pre className="template-preview-body">{shown.body}</pre>
        </div>
      ) : null}
    </fieldset>
  );
}
