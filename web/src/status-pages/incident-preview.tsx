import { fieldErrors } from '../api/client';
import { TextAreaField } from '../ui/fields';
import { useSettled } from '../ui/settled';
import { useIncidentPreview } from './queries';

/**
 * An update's Markdown body and, beside it, its preview as the public page will show it: the HTML
 * comes from the server's own renderer (POST /v1/status-pages/{slug}/incidents/preview, which is
 * lib/status-pages/html/markdown.ts, the one the public page uses), asked for once typing
 * pauses.
 */

/** How long typing pauses before the preview is asked for. */
const DEBOUNCE_MS = 300;

export function BodyField({
  slug,
  label,
  value,
  onChange,
  error,
}: {
  slug: string;
  label: string;
  value: string;
  onChange: (body: string) => void;
  error?: string | undefined;
}) {
  const settled = useSettled(value, DEBOUNCE_MS);
  const preview = useIncidentPreview(slug, settled);
  const previewError = preview.isError
    ? (fieldErrors(preview.error).body ?? preview.error.message)
    : undefined;
  const html = settled.trim() !== '' && !preview.isError ? preview.data?.html : undefined;
  return (
    <div className="incident-body">
      <TextAreaField
        label={label}
        value={value}
        onChange={onChange}
        rows={6}
        required
        hint="Markdown: paragraphs, *emphasis*, lists, [links](https://example.com) and `code`. HTML shows as text."
        error={error ?? previewError}
      />
      <section className="incident-preview" aria-label={`Preview of ${label.toLowerCase()}`}>
        <h3>Preview: as the public page will show it</h3>
        {html === undefined ? (
          <p className="muted">{settled.trim() === '' ? 'Nothing written yet.' : 'Rendering…'}</p>
        ) : (
          // The server's HTML is inserted as is. That is safe: markdown-it renders it with html:false
          // (raw HTML in a body comes back escaped as text), from its zero preset, keeping links to
          // http(s) and mailto only; it never emits a script, a handler attribute or a style. The
          // console's CSP (script-src 'self', lib/http/policies/console-policy.ts) would refuse one anyway.
          <div
            className="incident-rendered"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's renderer emits no raw HTML (above)
            dangerouslySetInnerHTML={{ __html: html }}
          />
        )}
      </section>
    </div>
  );
}
