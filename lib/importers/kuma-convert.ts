import { FIELD_NAME, isAllowedKey } from '../domain/catalog.ts';
import { type Conversion, ImportError, type TextImporter } from './importer.ts';
import { convertNotifications, type KumaNotification } from './kuma-channels.ts';
import { KumaContext, type Loose, slugOf, text, unique } from './kuma-context.ts';
import { convertMonitor } from './kuma-monitors.ts';
import {
  convertMaintenance,
  convertStatusPages,
  type KumaMaintenance,
  type KumaStatusPage,
} from './kuma-schedules.ts';

/**
 * Uptime Kuma → a Vigil configuration document (docs/importers.md "Uptime Kuma"). The source is
 * Kuma 1.x's backup export (Settings → Backup → Export: `{version, notificationList,
 * monitorList}`, written by Kuma's src/components/settings/Backup.vue from each monitor's
 * server/model/monitor.js toJSON) or Kuma's SQLite database (./kuma-db.ts reads it into the same
 * shape, plus the maintenance and status pages the backup never held). This file does no I/O: the
 * console's Import (./registry.ts) converts uploaded text with it, and ./kuma.ts reads files.
 *
 * Every monitor becomes an entity of the blueprint `kuma` holding one check; Kuma's tags become
 * the blueprint's fields and each monitor's tag values its entity's field values; a group monitor
 * becomes an entity without a check, which its members are `part_of`.
 */

/** Kuma's backup, and what the database reader adds to it. */
export interface KumaBackup {
  version?: string;
  notificationList: KumaNotification[];
  monitorList: Loose[];
  proxyList?: unknown[];
  maintenanceList?: KumaMaintenance[];
  statusPageList?: KumaStatusPage[];
}

const KUMA_BLUEPRINT = 'kuma';

/** A tag name as a blueprint field name (lib/domain/catalog/blueprint-fields.ts FIELD_NAME): `Team Name` → `team_name`. */
function fieldNameOf(tag: string): string {
  let name = tag
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60);
  if (!/^[A-Za-z_]/.test(name)) name = `tag_${name}`;
  return FIELD_NAME.test(name) && isAllowedKey(name) ? name : `tag_${name.replace(/^_+/, '')}`;
}

/** The entity field values of a monitor's tags; a tag given twice keeps its values joined by ", ". */
function tagValues(monitor: Loose, fields: Map<string, string>): Record<string, string> {
  const values: Record<string, string[]> = {};
  const tags = Array.isArray(monitor.tags) ? (monitor.tags as Loose[]) : [];
  for (const tag of tags) {
    const field = fields.get(String(tag.name));
    if (!field) continue;
    // A tag without a value is still a mark on the monitor: it reads "true".
    values[field] = [...(values[field] ?? []), text(tag.value) ?? 'true'];
  }
  return Object.fromEntries(
    Object.entries(values).map(([field, list]) => [field, [...new Set(list)].join(', ')]),
  );
}

/** Converts a parsed Kuma backup (or what ./kuma-db.ts read) to a document and its unmapped lines. */
export function convertKuma(backup: KumaBackup): Conversion {
  const ctx = new KumaContext();
  const { channels, names } = convertNotifications(backup.notificationList, ctx);
  const monitors = [...backup.monitorList].sort((a, b) => Number(a.id) - Number(b.id));

  // Tags → blueprint fields, in name order, each field name once.
  const fields = new Map<string, string>();
  const fieldNames = new Set<string>();
  const tagNames = new Set(
    monitors.flatMap((m) => (Array.isArray(m.tags) ? (m.tags as Loose[]).map((t) => String(t.name)) : [])),
  );
  for (const tag of [...tagNames].sort()) fields.set(tag, unique(fieldNameOf(tag), fieldNames, '_'));

  const entities: Loose[] = [];
  const checks: Loose[] = [];
  const entityOf = new Map<number, string>();
  const slugs = new Set<string>();
  for (const monitor of monitors) {
    const name = text(monitor.name) ?? `monitor ${String(monitor.id)}`;
    const linked = Object.entries((monitor.notificationIDList as Loose | undefined) ?? {})
      .filter(([, on]) => on === true || on === 1)
      .flatMap(([id]) => names.get(Number(id)) ?? []);
    const isGroup = monitor.type === 'group';
    const check = isGroup ? undefined : convertMonitor({ ...monitor, name }, ctx, linked);
    if (!isGroup && !check) continue;
    const slug = unique(slugOf(name, `monitor-${String(monitor.id)}`), slugs);
    const ref = `${KUMA_BLUEPRINT}/${slug}`;
    entityOf.set(Number(monitor.id), ref);
    const values = tagValues(monitor, fields);
    entities.push({
      blueprint: KUMA_BLUEPRINT,
      slug,
      name: name.slice(0, 200),
      ...(Object.keys(values).length > 0 ? { fields: values } : {}),
    });
    if (check) checks.push({ entity: ref, ...check });
    else if (linked.length > 0)
      ctx.skip(
        `monitor "${name}" (group): its notifications are not kept (a Vigil entity has no policy of its own)`,
      );
  }

  // Kuma's groups nest monitors: each member entity is part_of its group's entity.
  const relations: Loose[] = [];
  for (const monitor of monitors) {
    const parent =
      monitor.parent === null || monitor.parent === undefined ? undefined : Number(monitor.parent);
    const from = entityOf.get(Number(monitor.id));
    const to = parent === undefined ? undefined : entityOf.get(parent);
    if (from && to) relations.push({ from, to, relation_type: 'part_of' });
  }
  if ((backup.proxyList ?? []).length > 0)
    ctx.skip(`proxies (${backup.proxyList?.length}): Vigil probes directly and keeps no proxies`);

  const document: Record<string, unknown> = {
    apiVersion: 'vigil/v1',
    kind: 'Config',
    blueprints: [
      {
        slug: KUMA_BLUEPRINT,
        name: 'Uptime Kuma',
        description: 'Monitors imported from Uptime Kuma',
        fields: [...fields.values()].map((name) => ({ name, field_type: 'string' })),
      },
    ],
    entities,
    relations,
    channels,
    checks,
    maintenance: convertMaintenance(backup.maintenanceList ?? [], entityOf, ctx),
    status_pages: convertStatusPages(backup.statusPageList ?? [], entityOf, ctx),
  };
  return { document, unmapped: ctx.lines() };
}

/** Reads Kuma's backup JSON; throws ImportError when it is not one. */
export function parseKumaBackup(source: string): KumaBackup {
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch (err) {
    throw new ImportError(`This is not JSON: ${(err as Error).message}`);
  }
  const backup = parsed as Partial<KumaBackup> | null;
  if (!backup || typeof backup !== 'object' || !Array.isArray(backup.monitorList)) {
    throw new ImportError(
      'This is not an Uptime Kuma backup: it has no monitorList (export one in Kuma under Settings → Backup → Export, or give its kuma.db)',
    );
  }
  if (backup.notificationList !== undefined && !Array.isArray(backup.notificationList)) {
    throw new ImportError('This Uptime Kuma backup is damaged: notificationList is not a list');
  }
  const notificationList = backup.notificationList ?? [];
  for (const [key, items] of [
    ['monitorList', backup.monitorList],
    ['notificationList', notificationList],
  ] as const) {
    const bad = (items as unknown[]).findIndex(
      (item) => !item || typeof item !== 'object' || Array.isArray(item),
    );
    if (bad >= 0)
      throw new ImportError(`This Uptime Kuma backup is damaged: ${key}[${bad}] is not an object`);
  }
  return { ...backup, notificationList, monitorList: backup.monitorList };
}

/** The console's Import and POST /v1/config/convert: a Kuma backup's text. */
export const kumaImporter: TextImporter = {
  source: 'kuma',
  accept: '.json',
  convert: (source) => convertKuma(parseKumaBackup(source)),
};
