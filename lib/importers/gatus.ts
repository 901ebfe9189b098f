import { parseDocument } from 'yaml';
import { alertSettings, type GatusChannels, gatusChannels } from './gatus-alerting.ts';
import { endpointChecks, intervalSeconds } from './gatus-endpoints.ts';
import { gatusWindow } from './gatus-maintenance.ts';
import { suiteCheck } from './gatus-suites.ts';
import { asRecord, configDocument, slugAllocator } from './import-common.ts';
import { type Conversion, ImportError, type TextImporter } from './importer.ts';

/**
 * Gatus's YAML configuration (README "Configuration") as a Vigil document: every endpoint and
 * external endpoint an entity of blueprint `gatus` (one per group, else one per endpoint) with
 * its checks, every suite a multistep check (gatus-suites.ts); the alerting providers shared channels; the maintenance a recurring window over the
 * blueprint. Gatus's own settings (storage, web, ui, security, metrics …) have nothing to import
 * and are listed with everything else left out, by YAML path.
 */

/** The largest config read: far above any real one, and a bound on what one upload may cost. */
const MAX_TEXT_BYTES = 4 * 1024 * 1024;
/** Aliases a config may expand: YAML's "billion laughs" stay small. */
const MAX_ALIASES = 1000;
const BLUEPRINT = 'gatus';

/** Top-level keys of Gatus that configure Gatus itself. */
const GATUS_OWN = new Set([
  'metrics',
  'storage',
  'web',
  'ui',
  'security',
  'debug',
  'disable-monitoring-lock',
  'skip-invalid-config-update',
  'connectivity',
  'remote',
  'concurrency',
  'announcements',
]);
const READ = new Set(['endpoints', 'external-endpoints', 'suites', 'alerting', 'maintenance']);
const EXTERNAL_KEYS = new Set([
  'name',
  'group',
  'token',
  'alerts',
  'heartbeat',
  'enabled',
  'maintenance-windows',
]);
/** A push check's longest interval (30 days), as lib/check-types/contract/fields.ts allows. */
const PUSH_MAX_INTERVAL = 30 * 86_400;

/** Parses Gatus's YAML, bounded; a syntax error is an ImportError naming its line. */
function parseGatus(text: string): Record<string, unknown> {
  if (Buffer.byteLength(text) > MAX_TEXT_BYTES) {
    throw new ImportError(`This Gatus config is larger than ${MAX_TEXT_BYTES / 1024 / 1024} MB.`);
  }
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const [error] = document.errors;
  if (error) {
    const line = error.linePos?.[0]?.line;
    throw new ImportError(
      `The Gatus config is not valid YAML${line ? ` (line ${line})` : ''}: ${(error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:$/, '')}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = document.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (cause) {
    throw new ImportError(`The Gatus config cannot be read: ${(cause as Error).message}`);
  }
  const config = asRecord(parsed);
  if (!config) throw new ImportError('The Gatus config is not a YAML mapping (endpoints:, alerting:, …).');
  return config;
}

function convertGatus(text: string): Conversion {
  const config = parseGatus(text);
  const unmapped: string[] = [];
  for (const key of Object.keys(config)) {
    if (READ.has(key)) continue;
    unmapped.push(
      GATUS_OWN.has(key)
        ? `${key}: Gatus's own settings, nothing to import`
        : `${key}: unknown Gatus key, left out`,
    );
  }
  const channels = gatusChannels(config.alerting);
  unmapped.push(...channels.unmapped);
  const slug = slugAllocator();
  const entities: Record<string, unknown>[] = [];
  const groups = new Map<string, string>();
  /** The entity of an endpoint: its group's (made once) or its own. */
  const entityOf = (endpoint: Record<string, unknown>): string => {
    const group = typeof endpoint.group === 'string' && endpoint.group !== '' ? endpoint.group : undefined;
    const known = group === undefined ? undefined : groups.get(group);
    if (known) return known;
    const name = group ?? String(endpoint.name ?? '');
    const ref = `${BLUEPRINT}/${slug(name, 'endpoint')}`;
    entities.push({ blueprint: BLUEPRINT, slug: ref.slice(BLUEPRINT.length + 1), name: name || 'endpoint' });
    if (group !== undefined) groups.set(group, ref);
    return ref;
  };
  const checks: Record<string, unknown>[] = [];
  const maintenance: Record<string, unknown>[] = [];
  /** An endpoint's own maintenance windows, over its entity (its group's, when it has one). */
  const windowsOf = (endpoint: Record<string, unknown>, path: string, entity: string) =>
    eachOf(endpoint['maintenance-windows'], `${path}.maintenance-windows`, unmapped, (raw, at, index) => {
      const window = gatusWindow(raw, at, unmapped);
      const name = `${String(endpoint.name)} maintenance ${index + 1}`;
      if (window) maintenance.push({ name, entities: [entity], ...window });
    });
  eachOf(config.endpoints, 'endpoints', unmapped, (endpoint, path) => {
    const entity = entityOf(endpoint);
    checks.push(...endpointChecks(endpoint, path, entity, channels, unmapped));
    windowsOf(endpoint, path, entity);
  });
  eachOf(config['external-endpoints'], 'external-endpoints', unmapped, (endpoint, path) => {
    if (String(endpoint.name ?? '').trim() === '') {
      unmapped.push(`${path}: no name (Gatus requires one), endpoint left out`);
      return;
    }
    const entity = entityOf(endpoint);
    checks.push(externalCheck(endpoint, path, entity, channels, unmapped));
    windowsOf(endpoint, path, entity);
  });
  // A suite is one multistep check of its group's entity (or its own).
  eachOf(config.suites, 'suites', unmapped, (suite, path) => {
    const check = suiteCheck(suite, path, entityOf(suite), unmapped);
    if (check) checks.push(check);
  });
  if (config.maintenance !== undefined) {
    const window = gatusWindow(config.maintenance, 'maintenance', unmapped);
    if (window) maintenance.push({ name: 'gatus maintenance', blueprint_slugs: [BLUEPRINT], ...window });
  }
  // An endpoint left out still named its entity: keep only the entities something refers to.
  const used = new Set(
    [...checks, ...maintenance].flatMap((o) => [o.entity, ...((o.entities as unknown[]) ?? [])]),
  );
  const kept = entities.filter((e) => used.has(`${BLUEPRINT}/${String(e.slug)}`));
  const blueprints =
    kept.length > 0
      ? [
          {
            slug: BLUEPRINT,
            name: 'Gatus',
            description: 'Endpoints imported from Gatus (one entity per group)',
          },
        ]
      : [];
  return {
    document: configDocument({
      blueprints,
      entities: kept,
      channels: channels.channels,
      checks,
      maintenance,
    }),
    unmapped,
  };
}

/** Calls `each` with every mapping of a YAML list and its path; lines for what is not one. */
function eachOf(
  list: unknown,
  path: string,
  unmapped: string[],
  each: (item: Record<string, unknown>, path: string, index: number) => void,
): void {
  if (list === undefined) return;
  if (!Array.isArray(list)) {
    unmapped.push(`${path}: not a list, left out`);
    return;
  }
  list.forEach((raw, index) => {
    const item = asRecord(raw);
    if (item) each(item, `${path}[${index}]`, index);
    else unmapped.push(`${path}[${index}]: not a mapping, left out`);
  });
}

/**
 * An external endpoint (results pushed to Gatus's API with its token) as a push check: its
 * heartbeat interval is the interval a report must arrive within. Vigil gives the check its own
 * ping URL, so the pushing side changes (a line says so). Without a failure-threshold of its
 * alerts' own, the check is down on its first failure (DECISIONS.md "Heartbeat defaults").
 */
function externalCheck(
  endpoint: Record<string, unknown>,
  path: string,
  entity: string,
  channels: GatusChannels,
  unmapped: string[],
): Record<string, unknown> {
  for (const key of Object.keys(endpoint)) {
    if (!EXTERNAL_KEYS.has(key)) unmapped.push(`${path}.${key}: Vigil has no equivalent, left out`);
  }
  unmapped.push(
    `${path}: results are pushed to Gatus's API with a token; push to the check's Vigil ping URL instead (GET /v1/checks/{id} after apply)`,
  );
  const heartbeat = asRecord(endpoint.heartbeat);
  let interval = intervalSeconds(
    heartbeat?.interval,
    `${path}.heartbeat.interval`,
    unmapped,
    PUSH_MAX_INTERVAL,
  );
  if (heartbeat?.interval === undefined) {
    unmapped.push(
      `${path}.heartbeat: none in Gatus; a Vigil push check expects a report every interval (1 day set)`,
    );
    interval = 86_400;
  }
  return {
    entity,
    name: String(endpoint.name ?? ''),
    check_type: 'push',
    ...(interval === undefined ? {} : { interval_seconds: interval }),
    ...(endpoint.enabled === false ? { enabled: false } : {}),
    failure_threshold: 1,
    ...alertSettings(endpoint.alerts, `${path}.alerts`, channels, unmapped, 1),
  };
}

/** `gatus`: a Gatus config.yaml uploaded or given to `vigil import gatus`. */
export const gatusImporter: TextImporter = {
  source: 'gatus',
  accept: '.yaml,.yml',
  convert: convertGatus,
};
