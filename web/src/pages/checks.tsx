import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, fieldErrors, must } from '../api/client';
import { emptyDraft } from '../checks/check-draft';
import { CheckForm } from '../checks/check-form';
import { CheckTable } from '../checks/check-table';
import type { CheckType } from '../checks/check-types/form';
import { CHECK_TYPES } from '../checks/check-types/registry';
import { EntityPicker } from '../checks/entities';
import { CHECKS_PAGE, type CheckListFilter, checkQueries, checksChanged } from '../checks/queries';
import { refreshDelay } from '../live/refresh';
import { useSession } from '../session';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { SelectField, TextField } from '../ui/fields';
import { Page, Section } from '../ui/page';
import { useQueryParams } from '../ui/query-params';

/** The filters the list reads from the URL (a link reproduces the view) and sends to the server. */
const FILTERS = ['blueprint', 'entity_id', 'type', 'state', 'q'] as const;
/** Pages read on their own while a sparse filter's pages come back short (each reads a bounded part of the list). */
const AUTO_PAGES = 20;

/**
 * The account's checks (GET /v1/checks), 100 at a time with "Load more checks". Every filter
 * (blueprint, entity, type, state, text) is in the URL and asks the server; each row shows the
 * check's last results as a strip and its 24 h uptime.
 */
export function ChecksPage() {
  const { canWrite } = useSession();
  const [params, setFilter] = useQueryParams();
  const filter = Object.fromEntries(
    FILTERS.flatMap((k) => {
      const v = params.get(k);
      return v ? [[k, v]] : [];
    }),
  ) as CheckListFilter;
  const { blueprint = '', entity_id: entityId = '', type = '', state = '', q = '' } = filter;
  const checks = useInfiniteQuery({
    ...checkQueries.pages(filter),
    // "Last result" moves without a state change: read again after the soonest run (lists: at most every 10 s).
    refetchInterval: (query) =>
      refreshDelay(
        query.state.data?.pages.flatMap((p) => p.checks.map((c) => c.next_run_at)) ?? [],
        Date.now(),
        10_000,
      ),
  });
  const rows = checks.data?.pages.flatMap((p) => p.checks) ?? [];
  const pagesRead = checks.data?.pages.length ?? 0;
  const { hasNextPage, isFetching, fetchNextPage } = checks;
  // A sparse filter's page can come back short (the server reads a bounded part of the list per
  // page): read on until a page's worth is shown, for a bounded number of pages.
  useEffect(() => {
    if (hasNextPage && !isFetching && rows.length < CHECKS_PAGE && pagesRead < AUTO_PAGES) {
      void fetchNextPage();
    }
  }, [hasNextPage, isFetching, rows.length, pagesRead, fetchNextPage]);
  const filtered = FILTERS.some((k) => params.has(k));
  return (
    <Page
      title="Checks"
      actions={
        canWrite ? (
          <Link
            className="button primary"
            to={
              entityId
                ? `/checks/new?${new URLSearchParams({ blueprint, entity_id: entityId })}`
                : '/checks/new'
            }
          >
            New check
          </Link>
        ) : null
      }
    >
      <search className="form-grid" aria-label="Filter checks">
        <EntityPicker
          blueprint={blueprint}
          onBlueprint={(v) => setFilter({ blueprint: v, entity_id: '' })}
          entityId={entityId}
          onChange={(v) => setFilter({ entity_id: v })}
          anyLabel="All"
        />
        <SelectField
          label="Type"
          value={type}
          onChange={(v) => setFilter({ type: v })}
          options={[{ value: '', label: 'All types' }, ...CHECK_TYPES]}
        />
        <SelectField
          label="State"
          value={state}
          onChange={(v) => setFilter({ state: v })}
          options={[{ value: '', label: 'All states' }, 'up', 'degraded', 'down', 'unknown']}
        />
        <SearchText value={q} onChange={(v) => setFilter({ q: v })} />
      </search>
      <ErrorNote error={checks.error} title="The checks could not be read." />
      {checks.isPending ? (
        <Loading what="checks" />
      ) : checks.isSuccess && rows.length === 0 && !hasNextPage ? (
        <Empty title={filtered ? 'No check matches these filters.' : 'No checks yet.'}>
          {filtered
            ? 'Clear a filter to see more.'
            : canWrite
              ? 'Create a check to start watching an entity: an HTTP endpoint, a port, a certificate, a DNS record, or a push check your own agent reports to.'
              : 'Checks appear here once someone with write access creates them.'}
        </Empty>
      ) : rows.length > 0 ? (
        <CheckTable rows={rows} />
      ) : null}
      {checks.isSuccess ? (
        <p className="muted" aria-live="polite">
          {`${countChecks(rows.length)} shown`}
          {hasNextPage ? '; more follow.' : '.'}
        </p>
      ) : null}
      {hasNextPage ? (
        <button type="button" disabled={checks.isFetchingNextPage} onClick={() => fetchNextPage()}>
          {checks.isFetchingNextPage ? 'Loading more checks…' : 'Load more checks'}
        </button>
      ) : null}
    </Page>
  );
}

/** The text filter: typed freely, sent to the URL (and the server) once typing pauses. */
function SearchText({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const [text, setText] = useState(value);
  const sent = useRef(value);
  // A link or Back changes the URL: show its text (not the echo of what this field sent).
  useEffect(() => {
    if (value !== sent.current) {
      sent.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => {
    if (text.trim() === sent.current) return;
    const timer = setTimeout(() => {
      sent.current = text.trim();
      onChange(text.trim());
    }, 300);
    return () => clearTimeout(timer);
  }, [text, onChange]);
  return (
    <TextField
      label="Name contains"
      type="search"
      value={text}
      onChange={setText}
      placeholder="Check or entity name"
    />
  );
}

/** "1 check", "2 checks". */
function countChecks(n: number): string {
  return `${n} ${n === 1 ? 'check' : 'checks'}`;
}

/** Creates a check: an entity (blueprint, then entity; ?blueprint&entity_id preselect it), a type, its fields. */
export function NewCheckPage() {
  const { canWrite } = useSession();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [entityId, setEntityId] = useState(params.get('entity_id') ?? '');
  const [blueprint, setBlueprint] = useState(params.get('blueprint') ?? '');
  const [entityError, setEntityError] = useState<string>();
  if (!canWrite) {
    return (
      <Page title="New check">
        <Empty title="This key is read-only.">Sign in with a key that may write to create checks.</Empty>
      </Page>
    );
  }
  const create = async (body: Record<string, unknown>) => {
    setEntityError(undefined);
    if (!entityId) {
      setEntityError('Choose the entity this check watches');
      throw new Error('Choose the entity this check watches.');
    }
    try {
      const created = await must(api.POST('/v1/checks', { body: { ...body, entity_id: entityId } as never }));
      await checksChanged(queryClient);
      navigate(`/checks/${created.id}`);
    } catch (err) {
      setEntityError(fieldErrors(err).entity_id);
      throw err;
    }
  };
  // Run now, before saving: the draft probed once for the chosen entity, nothing stored.
  const tryRun = async (body: Record<string, unknown>) => {
    if (!entityId) {
      setEntityError('Choose the entity this check watches');
      throw new Error('Choose the entity this check watches.');
    }
    return must(api.POST('/v1/checks/run-draft', { body: { ...body, entity_id: entityId } as never }));
  };
  const type = (params.get('type') as CheckType | null) ?? 'http';
  return (
    <Page title="New check">
      <Section title="What to watch">
        <CheckForm
          initial={emptyDraft(type)}
          editing={false}
          submitLabel="Create check"
          onSubmit={create}
          onTryRun={tryRun}
          before={
            <EntityPicker
              blueprint={blueprint}
              onBlueprint={(v) => {
                setBlueprint(v);
                setEntityId('');
              }}
              entityId={entityId}
              onChange={setEntityId}
              error={entityError}
            />
          }
        />
      </Section>
    </Page>
  );
}
