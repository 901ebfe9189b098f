import { Link } from 'react-router';
import type { Schemas } from '../api/client';
import { StateBadge, Time } from '../ui/bits';
import { Table } from '../ui/table';
import { everyWords } from '../ui/time-words';
import { ResultStrip, uptimeWords } from './check-scan';
import { targetOf } from './check-summary';
import { LastRun } from './last-run';

type Check = Schemas['Check'];

/** A link to a check's entity page, named by the entity's name (every check answer carries it). */
export function EntityLink({ check }: { check: Check }) {
  return (
    <Link to={`/entities/${check.blueprint_slug}/${check.entity_slug}`}>
      {check.entity_name ?? check.entity_slug}
    </Link>
  );
}

/**
 * The checks list: each check with its entity, type and interval, state (a heartbeat's last run
 * beside it), last 30 results and 24 h uptime.
 */
export function CheckTable({ rows }: { rows: readonly Check[] }) {
  return (
    <Table
      label="Checks"
      rows={rows}
      rowKey={(c) => c.id}
      columns={[
        {
          header: 'Check',
          cell: (c) => (
            <>
              <Link to={`/checks/${c.id}`}>{c.name}</Link>
              {c.enabled ? null : <span className="muted"> (disabled)</span>}
              {c.name_is_default || c.check_type === 'push' ? null : (
                <div className="muted check-target">{targetOf(c)}</div>
              )}
            </>
          ),
        },
        { header: 'Entity', cell: (c) => <EntityLink check={c} /> },
        {
          header: 'Type',
          cell: (c) => (
            <>
              {c.check_type}
              <div className="muted">{everyWords(c.interval_seconds)}</div>
            </>
          ),
        },
        {
          header: 'State',
          cell: (c) => (
            <>
              <StateBadge state={c.state} />
              {c.check_type === 'push' ? <LastRun checkId={c.id} /> : null}
            </>
          ),
        },
        { header: 'Last 30 results', cell: (c) => <ResultStrip recent={c.recent} /> },
        { header: '24 h uptime', cell: (c) => uptimeWords(c.recent) },
        { header: 'Last result', cell: (c) => <Time iso={c.last_result_at} /> },
      ]}
    />
  );
}
