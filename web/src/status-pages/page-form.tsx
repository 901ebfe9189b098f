import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, api, fieldErrors, must } from '../api/client';
import { EntitySearchChips } from '../catalog/entity-search-chips';
import type { ChosenEntity } from '../catalog/entity-search-field';
import { NewTabLink } from '../ui/bits';
import { Notice } from '../ui/feedback';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../ui/fields';
import { FormShell } from '../ui/form-shell';
import { slugOf } from '../ui/slug';
import { type StatusPageRecord, statusPagesChanged } from './queries';

/**
 * Creates a status page (POST /v1/status-pages) or replaces one (PUT, every field but the slug,
 * which is the page's public address). The form checks nothing the API checks: a 400 names the
 * field and its message shows there; a taken slug (409, whoever holds it) shows at the slug. Who
 * may read the page (public, a password, the team's SSO) and the minutes after which drafts from
 * the dependency graph publish themselves are fields too; the password is write-only: empty on an
 * edit keeps the one set. The custom domain (docs/status-pages.md "Custom domains") is sent on
 * every save, empty as null: a name off the server's list (VIGIL_PAGE_DOMAINS) is the API's 400 at
 * the field, one another page holds its 409 there too.
 */

type Visibility = StatusPageRecord['visibility'];

interface Draft {
  slug: string;
  title: string;
  description: string;
  /** Named as the page's answer names them (`entities`), or as the search chose them. */
  entities: ChosenEntity[];
  showIncidents: boolean;
  /** Minutes as typed; empty: never. */
  autoPublish: string;
  visibility: Visibility;
  /** Empty: keep the page's password (an edit), or none given yet. */
  password: string;
  /** The custom domain as typed; empty: none. */
  domain: string;
}

function draftOf(p: StatusPageRecord | undefined): Draft {
  return {
    slug: p?.slug ?? '',
    title: p?.title ?? '',
    description: p?.description ?? '',
    entities: p?.entities ?? [],
    showIncidents: p?.show_incidents ?? true,
    autoPublish:
      p?.auto_publish_drafts_after_minutes == null ? '' : String(p.auto_publish_drafts_after_minutes),
    visibility: p?.visibility ?? 'public',
    password: '',
    domain: p?.domain ?? '',
  };
}

const VISIBILITY_OPTIONS = [
  { value: 'public', label: 'Anyone with the address' },
  { value: 'password', label: 'Visitors with a password' },
  { value: 'sso', label: 'The team, signed in with SSO' },
] as const;

/** The minutes as the API takes them: a whole number, or null for never (the API checks the range). */
const minutesOf = (typed: string): number | null => (typed.trim() === '' ? null : Number(typed));

const CHIP_WORDS = {
  legend: 'Entities shown (in this order)',
  listLabel: 'Shown entities',
  none: 'None yet: the page says nothing is shown.',
  field: 'Entity to add',
};

/** The API's bound on a page's entities (lib/status-pages/status-page-items.ts PAGE_LIMITS). */
const MAX_ENTITIES = 100;

/** The domain as the API takes it: trimmed, or null for none (the API checks the name). */
const domainOf = (typed: string): string | null => (typed.trim() === '' ? null : typed.trim());

/**
 * The errors to show at the fields: the API's by path, an item's at its list, a 409 at the slug,
 * or at the domain when it names the domain sent (a slug never holds the domain's dots).
 */
function errorsOf(error: unknown, domain: string | null): Record<string, string | undefined> {
  const errs: Record<string, string | undefined> = fieldErrors(error);
  if (error instanceof ApiError && error.status === 409 && error.code === 'CONFLICT') {
    if (domain !== null && error.message.includes(domain)) errs.domain ??= error.message;
    else errs.slug ??= error.message;
  }
  errs.entity_ids ??= Object.entries(errs).find(([path]) => path.startsWith('entity_ids.'))?.[1];
  return errs;
}

export function PageForm({ editing, onDone }: { editing?: StatusPageRecord; onDone?: () => void }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(editing));
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  // A new page's slug follows its title until the slug is edited (the slug of a saved page is fixed).
  const [slugEdited, setSlugEdited] = useState(false);
  const setTitle = (title: string) => set(slugEdited || editing ? { title } : { title, slug: slugOf(title) });
  const save = useMutation({
    mutationFn: (domain: string | null) => {
      const fields = {
        title: draft.title,
        description: draft.description.trim() === '' ? null : draft.description,
        entity_ids: draft.entities.map((e) => e.id),
        show_incidents: draft.showIncidents,
        auto_publish_drafts_after_minutes: minutesOf(draft.autoPublish),
        visibility: draft.visibility,
        ...(draft.visibility === 'password' && draft.password !== '' ? { password: draft.password } : {}),
        domain,
      };
      return editing
        ? must(api.PUT('/v1/status-pages/{slug}', { params: { path: { slug: editing.slug } }, body: fields }))
        : must(api.POST('/v1/status-pages', { body: { slug: draft.slug, ...fields } }));
    },
    onSuccess: async () => {
      if (!editing) {
        setDraft(draftOf(undefined));
        setSlugEdited(false);
      }
      await statusPagesChanged(queryClient);
      onDone?.();
    },
  });
  // The domain of the save that failed, not the one typed since.
  const errs = errorsOf(save.error, save.variables ?? null);
  const submit = () => {
    save.mutate(domainOf(draft.domain));
  };
  return (
    <FormShell
      title={editing ? `Edit ${editing.title}` : 'New status page'}
      heading={false}
      onSubmit={submit}
      send={save}
      submitLabel={editing ? 'Save status page' : 'Create status page'}
      failed={editing ? 'The status page was not saved.' : 'The status page was not created.'}
      done={
        !editing && save.isSuccess ? (
          <Notice>
            The status page {save.data.title} was created:{' '}
            <NewTabLink href={save.data.public_path}>{save.data.public_path}</NewTabLink>.
          </Notice>
        ) : null
      }
      buttons={
        onDone ? (
          <button type="button" onClick={onDone}>
            Cancel
          </button>
        ) : null
      }
      after={
        <>
          <TextAreaField
            label="Description"
            value={draft.description}
            onChange={(description) => set({ description })}
            rows={2}
            hint="Shown under the title; optional."
            error={errs.description}
          />
          <EntitySearchChips
            chosen={draft.entities}
            onChange={(entities) => set({ entities })}
            words={CHIP_WORDS}
            max={MAX_ENTITIES}
            error={errs.entity_ids}
          />
          <CheckboxField
            label="Show incidents"
            checked={draft.showIncidents}
            onChange={(showIncidents) => set({ showIncidents })}
            hint="The shown entities' open incidents and their last 10 resolved ones."
          />
          <TextField
            label="Publish drafts after (minutes)"
            type="number"
            value={draft.autoPublish}
            onChange={(autoPublish) => set({ autoPublish })}
            hint="A draft Vigil writes from the dependency graph is published by itself if nobody edits, publishes or deletes it by then; empty: never (1 to 1,440)."
            error={errs.auto_publish_drafts_after_minutes}
          />
          <div className="form-grid">
            <SelectField
              label="Who may read it"
              value={draft.visibility}
              onChange={(visibility) => set({ visibility: visibility as Visibility })}
              options={VISIBILITY_OPTIONS}
              error={errs.visibility}
            />
            {draft.visibility === 'password' ? (
              <TextField
                label="Page password"
                type="password"
                value={draft.password}
                onChange={(password) => set({ password })}
                autoComplete="new-password"
                hint={
                  editing?.visibility === 'password'
                    ? 'Empty keeps the password set; a new one signs every visitor out.'
                    : '8 to 200 characters; never shown again.'
                }
                error={errs.password}
              />
            ) : null}
          </div>
          <TextField
            label="Custom domain"
            value={draft.domain}
            onChange={(domain) => set({ domain })}
            placeholder="status.example.com"
            autoComplete="off"
            hint="Optional: the page also answers at https://<domain>/. The name must be on this server's list of page domains (VIGIL_PAGE_DOMAINS), and its DNS must point here (docs/status-pages.md, Custom domains); an SSO page's readers sign in on this server and are handed over to the domain. Empty: none."
            error={errs.domain}
          />
          <p className="muted">
            Anyone who may read it sees the title, the description, and each shown entity's name, state and
            daily uptime over 90 days; never its other details, what its checks watch, or error messages.
          </p>
        </>
      }
    >
      <TextField
        label="Title"
        value={draft.title}
        onChange={setTitle}
        required
        placeholder="Acme status"
        error={errs.title}
      />
      <TextField
        label="Slug"
        value={draft.slug}
        onChange={(slug) => {
          setSlugEdited(true);
          set({ slug });
        }}
        required
        disabled={Boolean(editing)}
        placeholder="acme"
        hint={
          editing
            ? 'The page’s address; it does not change.'
            : 'The public address /p/<slug>, made from the title until you change it: lower-case letters, digits and hyphens, unique across Vigil.'
        }
        error={errs.slug}
      />
    </FormShell>
  );
}
