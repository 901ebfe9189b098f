import Database from 'better-sqlite3';
import { ImportError } from './importer.ts';
import type { KumaNotification } from './kuma-channels.ts';
import type { Loose } from './kuma-context.ts';
import type { KumaBackup } from './kuma-convert.ts';
import type { KumaMaintenance, KumaStatusPage } from './kuma-schedules.ts';

/**
 * Reads an Uptime Kuma SQLite database (`data/kuma.db`, 1.x or 2.x; Kuma 2.x has no backup export)
 * read-only into the shape of Kuma's backup (./kuma.ts KumaBackup): monitors as Kuma's
 * monitor.toJSON writes them (column names in camelCase, their notifications and tags joined), the
 * notifications as rows, and the maintenance and status pages the backup never held. Columns are
 * read with `SELECT *`, so a column a Kuma version lacks is simply absent.
 *
 * Tables read (Kuma's db/kuma.db and db/old_migrations/patch-*.sql; db/knex_migrations in 2.x):
 * monitor, notification, monitor_notification, tag, monitor_tag, maintenance, monitor_maintenance,
 * status_page, group, monitor_group, proxy.
 */

/** The monitor columns monitor.toJSON writes under their own snake_case name. */
const SNAKE_KEPT = [
  'dns_resolve_type',
  'dns_resolve_server',
  'basic_auth_user',
  'maxretries',
  'maxredirects',
];

const camel = (column: string) => column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** A monitor row as the backup's monitor object: camelCase names, accepted status codes parsed. */
function monitorOf(row: Loose): Loose {
  const monitor: Loose = {};
  for (const [column, value] of Object.entries(row)) {
    // Secrets the importer never writes out are not carried at all.
    if (column === 'basic_auth_pass' || column.endsWith('_password') || column.endsWith('_secret')) continue;
    monitor[SNAKE_KEPT.includes(column) ? column : camel(column)] = value;
  }
  try {
    monitor.accepted_statuscodes = JSON.parse(String(row.accepted_statuscodes_json ?? '[]'));
  } catch {
    monitor.accepted_statuscodes = [];
  }
  delete monitor.acceptedStatuscodesJson;
  return monitor;
}

function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/** Rows of a table, or none when this Kuma version has no such table. */
function rows(db: Database.Database, table: string, sql = `SELECT * FROM "${table}" ORDER BY id`): Loose[] {
  return hasTable(db, table) ? (db.prepare(sql).all() as Loose[]) : [];
}

/** Groups `pairs` of `[key, value]` rows into lists by key. */
function listsBy(pairs: Loose[], key: string, value: string): Map<number, number[]> {
  const lists = new Map<number, number[]>();
  for (const pair of pairs) {
    const id = Number(pair[key]);
    lists.set(id, [...(lists.get(id) ?? []), Number(pair[value])]);
  }
  return lists;
}

/** Reads the database at `path`; throws ImportError when it is not Kuma's. */
export function readKumaDatabase(path: string): KumaBackup {
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new ImportError(`Cannot open ${path} as a SQLite database: ${(err as Error).message}`);
  }
  try {
    if (!hasTable(db, 'monitor') || !hasTable(db, 'notification')) {
      throw new ImportError(
        `${path} is a SQLite database but not Uptime Kuma's: it has no monitor and notification tables`,
      );
    }
    return readTables(db);
  } finally {
    db.close();
  }
}

function readTables(db: Database.Database): KumaBackup {
  const notificationsOf = listsBy(rows(db, 'monitor_notification'), 'monitor_id', 'notification_id');
  const tags = rows(
    db,
    'monitor_tag',
    'SELECT mt.*, tag.name, tag.color FROM monitor_tag mt JOIN tag ON mt.tag_id = tag.id ORDER BY tag.name, mt.id',
  );
  const monitorList = rows(db, 'monitor').map((row) => {
    const id = Number(row.id);
    return {
      ...monitorOf(row),
      notificationIDList: Object.fromEntries((notificationsOf.get(id) ?? []).map((n) => [String(n), true])),
      tags: tags.filter((tag) => Number(tag.monitor_id) === id),
    };
  });
  const notificationList = rows(db, 'notification').map(
    (row): KumaNotification => ({
      id: Number(row.id),
      name: String(row.name ?? ''),
      active: row.active,
      config: String(row.config ?? '{}'),
    }),
  );
  const monitorsOfWindow = listsBy(rows(db, 'monitor_maintenance'), 'maintenance_id', 'monitor_id');
  const maintenanceList = rows(db, 'maintenance').map(
    (row): KumaMaintenance => ({
      ...row,
      id: Number(row.id),
      title: String(row.title ?? ''),
      strategy: String(row.strategy ?? 'single'),
      monitorIds: monitorsOfWindow.get(Number(row.id)) ?? [],
    }),
  );
  // A status page shows its groups in weight order, and each group its monitors in weight order.
  const shown = hasTable(db, 'group')
    ? (db
        .prepare(
          'SELECT g.status_page_id AS page, mg.monitor_id AS monitor FROM "group" g JOIN monitor_group mg ON mg.group_id = g.id ORDER BY g.weight, g.id, mg.weight, mg.id',
        )
        .all() as Loose[])
    : [];
  const monitorsOfPage = listsBy(shown, 'page', 'monitor');
  const statusPageList = rows(db, 'status_page').map(
    (row): KumaStatusPage => ({
      ...row,
      id: Number(row.id),
      slug: String(row.slug ?? ''),
      title: String(row.title ?? ''),
      monitorIds: monitorsOfPage.get(Number(row.id)) ?? [],
    }),
  );
  return {
    notificationList,
    monitorList,
    proxyList: rows(db, 'proxy').map((row) => ({ id: row.id })),
    maintenanceList,
    statusPageList,
  };
}
