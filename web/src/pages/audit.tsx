import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Schemas } from '../api/client';
import { type AuditFilter, auditQueries } from '../audit/queries';
import { useSession } from '../session';
import { Time } from '../ui/bits';
import { Empty, ErrorNote, Loading, Notice } from '../ui/feedback';
import { TextField } from '../ui/fields';
import { Page, Section } from '../ui/page';
import { CursorPager, useCursorPages } from '../ui/pager';
import { Table } from '../ui/table';

type Entry = Schemas['AuditEntry'];

const VIA_WORDS: Record<Entry['via'], string> = {
  api: 'API',
  console: 'console',
  mcp: 'MCP',
  cli: 'CLI',
  agent: 'agent',
};

const ACTOR_WORDS: Record<Entry['actor']['type'], string> = {
  user: 'person',
  key: 'API key',
  oauth_client: 'OAuth client',
  agent: 'location',
  operator: 'operator',
  anonymous: 'unknown caller',
  ping_key: 'ping key',
};

/** The audit log (admins): who changed what, newest first, filtered by actor, target and date, paged. */
export function AuditPage() {
  const session = useSession();
  return (
    <Page title="Audit log">
      {session.isAdmin ? (
        <AuditLog />
      ) : (
        <Notice>The audit log is for admins: sign in with an admin's key or account to read it.</Notice>
      )}
    </Page>
  );
}

const FILTER_KEYS = ['actor', 'target', 'since'] as const;

function AuditLog() {
  const [params, setParams] = useSearchParams();
  const filter: AuditFilter = {
    actor: params.get('actor') ?? '',
    target: params.get('target') ?? '',
    since: params.get('since') ?? '',
  };
  const [draft, setDraft] = useState({ ...filter, since: filter.since.slice(0, 10) });
  const pages = useCursorPages();
  const log = useQuery(auditQueries.page(filter, pages.cursor));
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams();
    const since = draft.since ? `${draft.since}T00:00:00Z` : '';
    for (const [k, v] of [
      ['actor', draft.actor.trim()],
      ['target', draft.target.trim()],
      ['since', since],
    ] as const)
      if (v) next.set(k, v);
    pages.reset();
    setParams(next, { replace: true });
  };
  const rows = log.data?.entries ?? [];
  const filtered = FILTER_KEYS.some((k) => filter[k] !== '');
  return (
    <Section title="Entries">
      <form aria-label="Filter the audit log" onSubmit={apply}>
        <div className="form-grid">
          <TextField
            label="Actor"
            hint="A person's, key's, location's or OAuth client's id, or operator"
            value={draft.actor}
            onChange={(actor) => setDraft((d) => ({ ...d, actor }))}
          />
          <TextField
            label="Target"
            hint="type:id (check:chk_…) or the id alone"
            value={draft.target}
            onChange={(target) => setDraft((d) => ({ ...d, target }))}
          />
          <TextField
            label="Since"
            type="date"
            value={draft.since}
            onChange={(since) => setDraft((d) => ({ ...d, since }))}
          />
        </div>
        <div className="row">
          <button type="submit">Filter</button>
        </div>
      </form>
      <ErrorNote error={log.error} title="The audit log could not be read." />
      {log.isPending ? <Loading what="the audit log" /> : null}
      {log.data && rows.length === 0 ? (
        <Empty title={filtered ? 'No entry matches these filters on this page.' : 'No entries yet.'}>
          Every write is recorded here: through the API, the console, MCP tools, the CLI and agents.
        </Empty>
      ) : null}
      {rows.length > 0 ? (
        <Table
          label="Audit entries"
          rows={rows}
          rowKey={(e) => e.id}
          columns={[
            { header: 'Time', cell: (e) => <Time iso={e.at} /> },
            {
              header: 'Who',
              cell: (e) => (
                <>
                  {e.actor.label} <span className="muted">({ACTOR_WORDS[e.actor.type]})</span>
                </>
              ),
            },
            { header: 'Via', cell: (e) => VIA_WORDS[e.via] },
            { header: 'Action', cell: (e) => <code>{e.action}</code> },
            {
              header: 'Target',
              cell: (e) => (
                <>
                  {e.target.type} <code>{e.target.id}</code>
                </>
              ),
            },
            { header: 'Change', cell: (e) => e.summary || '—' },
            { header: 'From', cell: (e) => e.source_ip ?? '—' },
          ]}
        />
      ) : null}
      <CursorPager pages={pages} next={log.data?.next_cursor} of="entries" />
    </Section>
  );
}
