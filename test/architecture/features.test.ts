import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { type DocKey, defineKind, documentOrder } from '../../lib/config-doc/kind.ts';
import { kindSetOf } from '../../lib/config-doc/registry.ts';
import { BUILTIN_TOOLS, BUILTIN_TOOLSETS, CONFIG_KINDS } from '../../lib/features/feature-routes.ts';
import { FEATURES, notifyQueueJobSchema } from '../../lib/features/list.ts';
import { OWN_TOOLS, toolsetsOf } from '../../lib/mcp/builtin-tools.ts';
import { createBuiltins } from '../../lib/mcp/builtins/index.ts';
import type { BuiltinDeps } from '../../lib/mcp/tool-kit/deps.ts';
import {
  defineFeature,
  defineJobHost,
  defineMount,
  hostQueue,
  jobsOf,
  loadHosts,
  loadMounts,
  mountAll,
  mountedConfigKinds,
  mountedTools,
  mountOnly,
  queueSchema,
  withHost,
  withMount,
} from '../../lib/platform/feature.ts';
import { type BoundTool, bindTools, READS } from '../../lib/platform/mcp-tool.ts';
import { purgeOf, purgeStepsOf } from '../../lib/purge/purge-steps.ts';
import type { CreateSkillBody } from '../../lib/skills/manifest.ts';
import { lazyMounts } from './import-graph.ts';

/**
 * The feature contract (issue 76 point 1): a feature
 * declares its jobs in its face (lib/<feature>/feature.ts, defineFeature), the notify queue's job
 * union is built from the one list (lib/features/list.ts), so lib/notify knows none of the features
 * that use its queue. Imports are read with TypeScript's pre-processor (type-only ones count).
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const LIB = join(ROOT, 'lib');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const rel = (file: string) => relative(ROOT, file).split(sep).join('/');

function relativeImports(file: string): string[] {
  return ts
    .preProcessFile(readFileSync(file, 'utf8'), true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((s) => s.startsWith('.'))
    .map((s) => resolve(dirname(file), s));
}

/** `from -> to` for each import of a file under `fromDir` into a file under one of `toDirs`. */
function importsInto(fromDir: string, toDirs: string[]): string[] {
  return tsFiles(join(LIB, fromDir)).flatMap((file) =>
    relativeImports(file)
      .filter((target) => toDirs.some((dir) => rel(target).startsWith(`lib/${dir}/`)))
      .map((target) => `${rel(file)} -> ${rel(target)}`),
  );
}

/** The lib folders with a file that imports lib/notify, at most; the count only shrinks (issue 76's target: 8). */
const FOLDERS_IMPORTING_NOTIFY_AT_MOST = 8;

/**
 * The services of the tool façade (lib/mcp/tool-kit/deps.ts's BuiltinDeps, beside the kit's own:
 * clock, entity store, logger), at most: the built-ins MCP binds itself. It only shrinks as the
 * features' mounts bind their tools over their own services (28 before the mounts declared tools,
 * 14 before the maintenance, uptime, push, catalog, checks and search mounts bound theirs).
 */
const FACADE_SERVICES_AT_MOST = 7;

/** The services the features' mounts bind their tools over, which lib/mcp's composition no longer builds or takes. */
const BOUND_BY_MOUNTS = [
  'lib/audit/audit-service.ts',
  'lib/status-pages/page-incidents.ts',
  'lib/teams/who-service.ts',
  'lib/config-doc/kind.ts',
  'lib/maintenance/maintenance-service.ts',
  'lib/uptime/uptime-service.ts',
  'lib/push/ping-log.ts',
  'lib/push/run-log.ts',
];

/** The members of an interface declared in a file. */
function interfaceMembers(file: string, name: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found = source.statements.find(
    (node): node is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(node) && node.name.text === name,
  );
  return (found?.members ?? []).map((member) => member.name?.getText(source) ?? '');
}

/** The shared app's bounds (issue 76's targets): the roots iterate the lists instead of wiring each feature. */
const APP_MAX_LINES = 150;
const APP_MAX_IMPORTS = 15;

/** Where lib/app.ts may import from: the feature lists and their composition, the router and the change feed. */
const APP_IMPORTS_FROM = ['features', 'http', 'events'];

describe('the feature contract', () => {
  it('keeps lib/notify from importing on-call or status pages (the queue union comes from the list)', () => {
    expect(importsInto('notify', ['oncall', 'status-pages'])).toEqual([]);
  });

  it('keeps the roots from naming the listed features’ jobs and consumers (they iterate the list)', () => {
    const listed = ['status-pages', 'oncall', 'handover', 'teams'];
    expect(importsInto('events', listed)).toEqual([]);
    const notifierFunction = join(LIB, 'cloud', 'notifier-composition.ts');
    expect(
      relativeImports(notifierFunction)
        .map(rel)
        .filter((target) => listed.some((dir) => target.startsWith(`lib/${dir}/`))),
    ).toEqual([]);
  });

  it('sees an import from lib/notify into another feature (the check above can fail)', () => {
    expect(importsInto('notify', ['domain']).length).toBeGreaterThan(0);
  });

  it(`has at most ${FOLDERS_IMPORTING_NOTIFY_AT_MOST} lib folders importing lib/notify`, () => {
    const folders = new Set(
      tsFiles(LIB)
        .filter((file) => !rel(file).startsWith('lib/notify/') && rel(file).split('/').length > 2)
        .filter((file) => relativeImports(file).some((target) => rel(target).startsWith('lib/notify/')))
        .map((file) => rel(file).split('/')[1]),
    );
    expect(folders.size).toBeGreaterThan(0);
    expect([...folders].sort().length).toBeLessThanOrEqual(FOLDERS_IMPORTING_NOTIFY_AT_MOST);
  });

  it(`keeps lib/app.ts within ${APP_MAX_LINES} lines and ${APP_MAX_IMPORTS} imports, none into a feature`, () => {
    const app = join(LIB, 'app.ts');
    const lines = readFileSync(app, 'utf8').split('\n').length;
    const imports = relativeImports(app).map(rel);
    expect(lines).toBeLessThanOrEqual(APP_MAX_LINES);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.length).toBeLessThanOrEqual(APP_MAX_IMPORTS);
    expect(
      imports.filter((target) => !APP_IMPORTS_FROM.some((dir) => target.startsWith(`lib/${dir}/`))),
    ).toEqual([]);
  });

  it('has the roots name no feature’s insides: lib/app.ts and lib/features import only faces (lib/<folder>/<file>.ts)', () => {
    const roots = [join(LIB, 'app.ts'), ...tsFiles(join(LIB, 'features'))];
    const insides = roots.flatMap((file) =>
      relativeImports(file)
        .map(rel)
        // Its own room (lib/features/kinds: the core features' configuration kinds) is not another's inside.
        .filter((target) => target.startsWith('lib/') && !target.startsWith('lib/features/'))
        .filter((target) => target.split('/').length > 3)
        .map((target) => `${rel(file)} -> ${target}`),
    );
    expect(roots.length).toBeGreaterThan(3);
    expect(insides).toEqual([]);
  });

  it('mounts every feature’s routes once, in the list’s order, refusing a name twice', () => {
    const mount = (name: string, paths: string[]) => defineMount({ name, routes: () => paths });
    expect(mountAll([mount('a', ['/a1', '/a2']), mount('b', ['/b'])], {})).toEqual(['/a1', '/a2', '/b']);
    expect(() => mountAll([mount('a', ['/a']), mount('a', ['/b'])], {})).toThrow(
      /the mount a is listed twice/,
    );
  });

  it('declares every feature once in the one list: its face from its own folder (lib/<feature>/feature.ts or jobs.ts; lib/features/core-faces.ts for the folders whose faces are full), its mount from a route module, lazily', () => {
    const names = FEATURES.map((feature) => feature.name);
    expect(new Set(names).size).toBe(names.length);
    const listFile = join(LIB, 'features', 'list.ts');
    const list = readFileSync(listFile, 'utf8');
    const faces = [...list.matchAll(/from '\.\.\/([a-z-]+)\/([a-z-]+)\.ts'/g)]
      .map((m) => `${m[1]}/${m[2]}`)
      .filter((face) => face !== 'platform/feature');
    const coreFaces = [...list.matchAll(/import \{([^}]*)\} from '\.\/core-faces\.ts'/g)].flatMap((m) =>
      (m[1] ?? '').split(',').map((name) => name.trim()),
    );
    expect(coreFaces).toEqual(['checksFeature', 'pushFeature']);
    expect(faces.filter((face) => !/\/(feature|jobs)$/.test(face))).toEqual([]);
    // Each face once in the list (alone, or with its mount); the rest of the entries only mount.
    const listed = [...list.matchAll(/^ +(?:with(?:Mount|Host)\((\w+),|(\w+),$)/gm)].map((m) => m[1] ?? m[2]);
    expect(listed.length).toBe(faces.length + coreFaces.length);
    const mountOnlyEntries = [...list.matchAll(/^ {2}mountOnly\('/gm)].length;
    expect(listed.length + mountOnlyEntries).toBe(FEATURES.length);
    // Every mount is a route module, imported lazily (a static import of one would load it in every function).
    const mounts = [...lazyMounts(listFile, list)].map(rel);
    expect(mounts.length).toBeGreaterThan(5);
    expect(
      mounts.filter((file) => !/^lib\/([a-z-]+\/feature|features\/[a-z]+)-routes\.ts$/.test(file)),
    ).toEqual([]);
    expect(
      [...new Set(relativeImports(listFile).map(rel))].filter((file) => /routes\.ts$/.test(file)).sort(),
    ).toEqual([...mounts].sort());
  });

  it('has a feature added by one line of the list: no other file loads a mount the list names, or names a face outside its own folder', () => {
    const listFile = join(LIB, 'features', 'list.ts');
    const list = readFileSync(listFile, 'utf8');
    const mounts = lazyMounts(listFile, list);
    const others = [...tsFiles(LIB), ...tsFiles(join(ROOT, 'functions'))].filter((file) => file !== listFile);
    const loaders = others.flatMap((file) =>
      relativeImports(file)
        .filter((target) => mounts.has(target))
        .map((target) => `${rel(file)} -> ${rel(target)}`),
    );
    expect(mounts.size).toBeGreaterThan(5);
    expect(loaders).toEqual([]);
    // A face is named by the list and, in its own folder, by its job host; by no other file.
    const faces = new Map(
      [...list.matchAll(/import \{([^}]*)\} from '([^']+)';/g)]
        .filter((m) => !(m[2] ?? '').includes('/platform/'))
        .flatMap((m) =>
          (m[1] ?? '')
            .split(',')
            .map((name) => [name.trim(), dirname(resolve(dirname(listFile), m[2] ?? ''))] as const),
        ),
    );
    expect([...faces.keys()]).toEqual(
      expect.arrayContaining(['statusPagesFeature', 'notifyFeature', 'checksFeature']),
    );
    const naming = others.flatMap((file) =>
      [...faces]
        .filter(
          ([name, home]) =>
            dirname(file) !== home && new RegExp(`\\b${name}\\b`).test(readFileSync(file, 'utf8')),
        )
        .map(([name]) => `${rel(file)} names ${name}`),
    );
    expect(naming).toEqual([]);
  });

  it('plugs a new feature’s job, job host, purge step, route, configuration kind and tool through one list entry', async () => {
    const fixtureJob = z.strictObject({ kind: z.literal('fixture_job'), n: z.number() });
    const purged: string[] = [];
    const face = defineFeature({
      name: 'fixture',
      jobs: jobsOf('notify', [fixtureJob]),
      purge: purgeOf(() => ({
        entity: [
          async (_table, job) => {
            purged.push(job.entity_id);
            return { ops: [], more: false };
          },
        ],
      })),
    });
    const fixtureTool = {
      name: 'fixture_tool',
      annotations: {
        title: 'Fixture',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      handler: async (deps: { greeting: string }) => ({
        content: [{ type: 'text' as const, text: deps.greeting }],
      }),
    };
    const skillsKind = defineKind({
      key: 'skills',
      noun: 'fixture',
      schema: {} as never,
      identity: () => 'fixture',
      references: () => [],
      read: async () => [],
      create: async () => '',
      update: async () => {},
      remove: async () => {},
    });
    const handled: string[] = [];
    const host = defineJobHost({
      feature: face,
      queue: 'notify',
      handler: (ports: { prefix: string }) => async (job) => {
        handled.push(`${ports.prefix}${job.body.kind}`);
      },
    });
    const loads: string[] = [];
    // The one entry: the face, its mount and its job host, each behind a loader only its loader calls.
    const list = [
      mountOnly('other', async () => defineMount({ name: 'other', routes: () => ['/other'] })),
      withHost(
        withMount(face, async () => {
          loads.push('mount');
          return defineMount({
            name: 'fixture',
            routes: ({ words }: { words: string }) => [`/fixture/${words}`],
            configKinds: [skillsKind],
            tools: bindTools((services: { words: string }) => ({ greeting: services.words }), [fixtureTool]),
          });
        }),
        async () => {
          loads.push('host');
          return host;
        },
      ),
    ] as const;

    const schema = queueSchema<z.infer<typeof fixtureJob>>(list, 'notify');
    expect(schema.parse({ kind: 'fixture_job', n: 1 })).toEqual({ kind: 'fixture_job', n: 1 });
    const steps = purgeStepsOf(list, { table: {} as never, clock: { now: () => 0 } });
    await steps.entity[0]?.({} as never, { kind: 'entity', entity_id: 'ent_1', tenant_id: 't', round: 0 });
    expect(purged).toEqual(['ent_1']);
    expect(loads).toEqual([]);
    expect(() => hostQueue(list, 'notify', [], {})).toThrow(/no host for the notify job kinds fixture_job/);
    const handle = hostQueue(list, 'notify', await loadHosts(list), { prefix: 'ran ' });
    await handle({ body: { kind: 'fixture_job', n: 1 } } as never);
    expect(handled).toEqual(['ran fixture_job']);
    expect(loads).toEqual(['host']);

    const mounts = await loadMounts(list);
    expect(loads).toEqual(['host', 'mount']);
    expect(mountAll(mounts, { words: 'hi' })).toEqual(['/other', '/fixture/hi']);
    expect(Object.keys(kindSetOf(mountedConfigKinds(mounts)))).toEqual(['skills']);
    const [bound] = mountedTools(mounts, { words: 'hi' });
    expect(await bound?.run({ tenantId: 't' } as never, {})).toEqual({
      content: [{ type: 'text', text: 'hi' }],
    });
  });

  it('loads the list’s mounts in its order, each once, and none as the list loads', async () => {
    const mounts = await loadMounts(FEATURES);
    expect(mounts.map((mount) => mount.name)).toEqual([
      ...['health', 'people', 'catalog', 'checks', 'status', 'push', 'notifications', 'maintenance'],
      ...['actions', 'incidents', 'statusPages', 'uptime', 'reports', 'oncall', 'contacts', 'teams'],
      ...['integrations', 'ack-links', 'escalation', 'locations', 'search', 'skills', 'importers'],
      ...['configDocs', 'mcp'],
    ]);
    expect(FEATURES.filter((feature) => 'mount' in feature).length).toBe(mounts.length);
  });

  it('has the purge run the list’s steps: lib/purge and lib/events name no feature’s purge step', () => {
    expect(importsInto('purge', ['actions', 'catalog', 'checks', 'incidents', 'push'])).toEqual([]);
    const owners = importsInto('events', ['actions', 'catalog', 'checks', 'incidents', 'push']);
    expect(owners.filter((edge) => /purge/.test(edge))).toEqual([]);
    // What the purge of a deleted entity, action and check partition runs, each from its owner's face.
    const steps = purgeStepsOf(FEATURES, { table: {} as never, clock: { now: () => 0 } });
    expect(steps.entity.map((step) => step.name)).toEqual([
      'purgeEntityRelations',
      'purgeEntityChecks',
      expect.any(String),
    ]);
    expect(steps.action.map((step) => step.name)).toEqual(['purgeActionExecutions']);
    expect(steps.partition.map((step) => step.name)).toEqual(['purgePingTokenLookups']);
  });

  it('has the configuration engine take the kinds the mounts declare: lib/config-doc names no feature', () => {
    const folders = tsFiles(join(LIB, 'config-doc')).flatMap((file) =>
      relativeImports(file)
        .map(rel)
        .filter((target) => !target.startsWith('lib/config-doc/'))
        .map((target) => target.split('/')[1]),
    );
    expect(folders.length).toBeGreaterThan(0);
    expect([...new Set(folders)].sort()).toEqual(['domain', 'http', 'platform']);
    expect(Object.keys(CONFIG_KINDS)).toEqual(documentOrder(Object.values(CONFIG_KINDS)));
  });

  it('plugs a new feature’s routes and configuration kind through the one mount list', () => {
    const kind = (key: DocKey) =>
      defineKind({
        key,
        noun: key,
        schema: {} as never,
        identity: () => key,
        references: () => [],
        read: async () => [],
        create: async () => '',
        update: async () => {},
        remove: async () => {},
      });
    const fixture = defineMount({
      name: 'fixture',
      routes: () => ['/fixture'],
      configKinds: [kind('skills')],
    });
    const other = defineMount({ name: 'other', routes: () => ['/other'], configKinds: [kind('teams')] });
    const mounts = [other, fixture];
    expect(mountAll(mounts, {})).toEqual(['/other', '/fixture']);
    const kinds = kindSetOf(mountedConfigKinds(mounts));
    // Keyed in the document's order, whatever the mounts' order.
    expect(Object.keys(kinds)).toEqual(['skills', 'teams']);
    expect(kinds.skills?.noun).toBe('skills');
    expect(() => kindSetOf(mountedConfigKinds([fixture, fixture]))).toThrow(
      /the configuration kind skills is declared twice/,
    );
  });

  it('orders a new feature’s configuration kind by the place it declares, with lib/config-doc untouched', () => {
    const widgets = defineKind({
      key: 'widgets' as DocKey,
      after: ['checks', 'teams'],
      noun: 'widget',
      schema: {} as never,
      identity: () => 'widgets',
      references: () => [],
      read: async () => [],
      create: async () => '',
      update: async () => {},
      remove: async () => {},
    });
    const fixture = defineMount({ name: 'fixture', routes: () => [], configKinds: [widgets] });
    const before = Object.keys(CONFIG_KINDS);
    const order = Object.keys(kindSetOf([...mountedConfigKinds([fixture]), ...Object.values(CONFIG_KINDS)]));
    // After what it names, the other lists as they were.
    expect(order.indexOf('widgets')).toBeGreaterThan(order.indexOf('teams'));
    expect(order.filter((key) => key !== 'widgets')).toEqual(before);
    expect(order).toHaveLength(before.length + 1);
    // lib/config-doc keeps no list of the lists: the kinds' places are the order.
    const listed = new RegExp(before.map((key) => `'${key}'`).join(',\\s*'));
    const configDoc = tsFiles(join(LIB, 'config-doc')).map((file) => readFileSync(file, 'utf8'));
    expect(configDoc.filter((text) => listed.test(text))).toEqual([]);
    expect(listed.test(before.map((key) => `'${key}'`).join(',\n  '))).toBe(true);
    const lost = defineKind({ ...widgets, after: ['gadgets'] } as never);
    expect(() => kindSetOf([lost, ...Object.values(CONFIG_KINDS)])).toThrow(
      /the configuration kind widgets comes after gadgets, which no kind declares/,
    );
  });

  it(`binds the features’ tools in their mounts: the tool façade holds at most ${FACADE_SERVICES_AT_MOST} services`, () => {
    const facade = interfaceMembers(join(LIB, 'mcp', 'tool-kit', 'deps.ts'), 'BuiltinDeps');
    const kit = interfaceMembers(join(LIB, 'catalog', 'entities', 'entity-args.ts'), 'ToolKitDeps');
    expect(kit).toEqual(['clock', 'entityStore', 'logger']);
    expect(facade.length).toBeGreaterThan(0);
    expect(facade.length).toBeLessThanOrEqual(FACADE_SERVICES_AT_MOST);
    const featureServices = [
      ...['who', 'outsideAlerts', 'pageIncidents', 'audit', 'config', 'simulator'],
      ...['prober', 'runtime', 'policies', 'maintenance', 'uptime', 'pingLog', 'runLog'],
      ...['checkService', 'checkReads', 'search'],
    ];
    expect(facade.filter((field) => featureServices.includes(field))).toEqual([]);
    const compose = relativeImports(join(LIB, 'mcp', 'compose.ts')).map(rel);
    expect(compose.filter((target) => BOUND_BY_MOUNTS.includes(target))).toEqual([]);
    // MCP binds itself only its app views and find_tools; every other built-in is a mount's.
    expect(OWN_TOOLS.map((tool) => tool.name)).toEqual(['show_status', 'show_blast_radius', 'find_tools']);
  });

  it('plugs a new feature’s tool through its mount and a toolset entry, with no list of built-ins to edit', async () => {
    const caller = { tenantId: 't' } as never;
    const tool = (name: string) => ({
      name,
      annotations: {
        title: name,
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      handler: async (deps: { greeting?: string }) => ({
        content: [{ type: 'text' as const, text: deps.greeting ?? '' }],
      }),
    });
    // A new feature's tool: its definition, its mount's binding and one toolset entry; nothing of lib/mcp.
    const fixtureTool = tool('fixture_tool');
    const fixture = defineMount({
      name: 'fixture',
      routes: () => [],
      tools: bindTools((services: { words: string }) => ({ greeting: services.words }), [fixtureTool]),
    });
    expect(fixture.tools?.tools).toEqual([fixtureTool]);
    const [bound] = mountedTools([fixture], { words: 'hello' });
    expect(bound?.name).toBe('fixture_tool');
    expect(await bound?.run(caller, {})).toEqual({ content: [{ type: 'text', text: 'hello' }] });
    expect(() => mountedTools([fixture, fixture], { words: '' })).toThrow(
      /the tool fixture_tool is mounted twice/,
    );
    // The catalog binds MCP's own built-ins and takes the rest from the mounts, each exactly once;
    // a built-in is what a toolset offers.
    const entry = { name: 'fixture_tool', description: 'A fixture.', inputSchema: { type: 'object' } };
    const checkOps = BUILTIN_TOOLSETS.find((toolset) => toolset.slug === 'check-ops') as CreateSkillBody;
    const fixtureToolset = { ...checkOps, slug: 'fixture-ops', tools: [entry] };
    const own = (toolsets: readonly CreateSkillBody[]) => ({ toolsets }) as BuiltinDeps;
    const mounted = BUILTIN_TOOLS.filter((t) => !OWN_TOOLS.includes(t as never)).map((t) => t.name);
    const declared = (names: string[]): BoundTool[] => bindTools(() => ({}), names.map(tool)).bind({});
    expect(mounted).toContain('who_is_on_call');
    expect(createBuiltins(own(BUILTIN_TOOLSETS), declared(mounted)).size).toBe(BUILTIN_TOOLS.length);
    const withFixture = createBuiltins(own([...BUILTIN_TOOLSETS, fixtureToolset]), [
      ...declared(mounted),
      ...mountedTools([fixture], { words: 'hi' }),
    ]);
    expect(await withFixture.get('fixture_tool')?.run(caller, {})).toEqual({
      content: [{ type: 'text', text: 'hi' }],
    });
    expect(() => createBuiltins(own(BUILTIN_TOOLSETS), [])).toThrow(
      /no mount binds the built-in tools .*who_is_on_call/,
    );
    expect(() => createBuiltins(own(BUILTIN_TOOLSETS), declared([...mounted, 'list_entities']))).toThrow(
      /the built-in tool list_entities is bound twice/,
    );
    expect(() => createBuiltins(own(BUILTIN_TOOLSETS), declared([...mounted, 'fixture_tool']))).toThrow(
      /fixture_tool is no built-in tool: no toolset offers it/,
    );
    expect(() => createBuiltins(own([...BUILTIN_TOOLSETS, fixtureToolset]), declared(mounted))).toThrow(
      /no mount binds the built-in tools fixture_tool/,
    );
  });

  it('keeps no feature’s tool definition in lib/mcp: only MCP’s own (its app views and find_tools)', () => {
    // A tool definition: an object with a tool's name and a handler.
    const defined = tsFiles(join(LIB, 'mcp')).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return /handler: /.test(text) ? [...text.matchAll(/^ {2}name: '([a-z_]+)',$/gm)].map((m) => m[1]) : [];
    });
    expect([...new Set(defined)].sort()).toEqual(OWN_TOOLS.map((tool) => tool.name).sort());
    // Every other built-in is a feature's, with its toolset entry.
    const mounted = BUILTIN_TOOLS.filter((tool) => !OWN_TOOLS.includes(tool as never));
    expect(mounted.length).toBeGreaterThan(30);
    expect(mounted.filter((tool) => !tool.offer).map((tool) => tool.name)).toEqual([]);
  });

  it('plugs a new feature’s tool into its toolset from its definition, with lib/mcp untouched', () => {
    const widgetTool = {
      name: 'count_widgets',
      annotations: { title: 'Count widgets', ...READS },
      offer: {
        toolset: 'incident-ops',
        order: 35,
        version: '1.3.0',
        description: 'How many widgets there are.',
        inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      },
      handler: async () => ({ content: [] }),
    };
    const toolsets = toolsetsOf([...BUILTIN_TOOLS, widgetTool]);
    const incidentOps = toolsets.find((toolset) => toolset.slug === 'incident-ops');
    const before = BUILTIN_TOOLSETS.find((toolset) => toolset.slug === 'incident-ops');
    // At its place, its entry as the definition says, and the toolset's version moves with it.
    const names = (incidentOps?.tools ?? []).map((tool) => tool.name);
    expect(names.slice(2, 5)).toEqual(['add_incident_note', 'count_widgets', 'list_outside_alerts']);
    expect(incidentOps?.tools[3]).toEqual({
      name: 'count_widgets',
      description: 'How many widgets there are.',
      inputSchema: widgetTool.offer.inputSchema,
      annotations: widgetTool.annotations,
    });
    expect(before?.version).toBe('1.2.0');
    expect(incidentOps?.version).toBe('1.3.0');
    expect(toolsets.filter((toolset) => toolset.slug !== 'incident-ops')).toEqual(
      BUILTIN_TOOLSETS.filter((toolset) => toolset.slug !== 'incident-ops'),
    );
    // The catalog takes it from the toolsets, bound by its mount like any other.
    const fixture = defineMount({
      name: 'widgets',
      routes: () => [],
      tools: bindTools(() => ({}), [widgetTool]),
    });
    const declared = BUILTIN_TOOLS.filter((t) => !OWN_TOOLS.includes(t as never)).map((t) => t.name);
    const bound = createBuiltins({ toolsets } as unknown as BuiltinDeps, [
      ...bindTools(
        () => ({}),
        declared.map((name) => ({ ...widgetTool, name })),
      ).bind({}),
      ...mountedTools([fixture], {}),
    ]);
    expect(bound.has('count_widgets')).toBe(true);
    // A toolset that does not exist, or a place another tool holds, is refused by name.
    expect(() =>
      toolsetsOf([
        ...BUILTIN_TOOLS,
        { ...widgetTool, offer: { ...widgetTool.offer, toolset: 'widget-ops' } },
      ]),
    ).toThrow(/count_widgets is offered in widget-ops, which is no toolset/);
    expect(() =>
      toolsetsOf([...BUILTIN_TOOLS, { ...widgetTool, offer: { ...widgetTool.offer, order: 30 } }]),
    ).toThrow(
      /add_incident_note and count_widgets are at one place of incident-ops|count_widgets and add_incident_note are at one place of incident-ops/,
    );
  });

  it('plugs a new feature’s purge step through the one list', async () => {
    const purged: string[] = [];
    const fixture = defineFeature({
      name: 'fixture',
      jobs: [],
      purge: purgeOf(({ clock }) => ({
        entity: [
          async (_table, job) => {
            purged.push(`${job.entity_id} at ${clock.now()}`);
            return { ops: [], more: false };
          },
        ],
      })),
    });
    const steps = purgeStepsOf([...FEATURES, fixture], { table: {} as never, clock: { now: () => 7 } });
    await steps.entity.at(-1)?.({} as never, {
      kind: 'entity',
      entity_id: 'ent_1',
      tenant_id: 't',
      round: 0,
    });
    expect(purged).toEqual(['ent_1 at 7']);
    expect(() =>
      purgeStepsOf([defineFeature({ name: 'odd', jobs: [], purge: () => ({ tenant: [] }) })], {
        table: {} as never,
        clock: { now: () => 0 },
      }),
    ).toThrow(/odd declares purge steps of an unknown job kind tenant/);
  });

  it('builds the notify queue union from the list: status pages’ and handover’s kinds with notify’s own', () => {
    const kinds = FEATURES.flatMap((feature) => feature.jobs.map((job) => job.kind));
    expect(kinds).toEqual(
      expect.arrayContaining(['event', 'deliver', 'page_notice', 'page_draft_publish', 'handover']),
    );
    for (const kind of kinds) expect(notifyQueueJobSchema.safeParse({ kind }).success, kind).toBe(false);
    expect(notifyQueueJobSchema.safeParse({ kind: 'nothing_declares_it' }).success).toBe(false);
    expect(
      notifyQueueJobSchema.parse({
        kind: 'handover',
        tenant_id: 'ten_1',
        schedule_id: 'sch_1',
        version: 1,
        due_ms: 0,
      }),
    ).toMatchObject({ kind: 'handover' });
  });
});
