import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CONTACT_KIND_DEFINITIONS } from '../../lib/contacts/kinds/registry.ts';
import { CHANNEL_DEFINITIONS } from '../../lib/notify/channels/registry.ts';

/**
 * One messaging-provider registry (issue 76 point 4; STYLE.md "Features and stages (wave 6)", after
 * Grafana OnCall's messaging backends): a provider is defined once, in ONE file,
 * lib/providers/<provider>.ts: its config rules, its request, its error words and its uses as data
 * (`channel`, the alert channel type it serves; `people`, the kinds of a person's contact method it
 * serves), listed by one line in the one provider registry (PROVIDERS, lib/providers/registry.ts),
 * from which lib/notify derives the channel types (CHANNEL_DEFINITIONS) and lib/contacts the contact
 * method kinds (CONTACT_KIND_DEFINITIONS, with the console's own). So a new provider is lib 2 files
 * (its file and the registry) and web 2 files (its form and the forms' registry), whether it serves
 * channels, people or both:
 *
 * - counted by its name: the files named after it and the lines that register it (below);
 * - a provider file reaches the network only through the one provider POST
 *   (lib/providers/provider-post.ts) and knows no use: it imports only lib/domain, lib/platform and
 *   its own folder, the use contracts being lib/providers' (channel-use.ts, person-use.ts);
 * - no channel type and nothing in lib/contacts sends HTTP by hand (no `httpRequest`, no
 *   `undiciRequest`, no second provider POST): a second copy of a request has nowhere to go;
 * - each registry line takes its provider from the provider's own file, and every file of
 *   lib/providers is a registered provider, a helper beside one (`<provider>-*.ts`) or one of the
 *   shared parts (the POST, the ports, the contracts, the registry);
 * - the console's contact method kinds are gathered from the providers' forms
 *   (web/src/notify/channel-forms/<provider>.ts `people`), not written in a second table.
 *
 * Imports are read with TypeScript's own pre-processor, as imports.test.ts reads them. Channel
 * types that are no provider's (webhook, NATS) and those whose request is their own (Slack,
 * Gotify, PagerDuty, ...) stay one file of lib/notify/channels and one line of its registry: the
 * same two files.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const PROVIDER_DIR = 'lib/providers';
const PROVIDER_REGISTRY = `${PROVIDER_DIR}/registry.ts`;
const FORMS_REGISTRY = 'web/src/notify/channel-forms/registry.ts';
/** The one POST every provider shares. */
const PROVIDER_POST = `${PROVIDER_DIR}/provider-post.ts`;
/** lib/providers' shared parts: the POST, the outbound ports, the message, the config fields, the use contracts, the registry. */
const SHARED = [
  'provider-post.ts',
  'ports.ts',
  'message.ts',
  'config-fields.ts',
  'channel-use.ts',
  'person-use.ts',
  'provider.ts',
  'registry.ts',
].map((file) => `${PROVIDER_DIR}/${file}`);
/** What a provider file may import besides its own folder. */
const PROVIDER_FLOOR = ['lib/domain/', 'lib/platform/'];
/** Sending HTTP by hand: the egress client and its transport. */
const HAND_SENT = /\b(httpRequest|undiciRequest)\s*\(|\bfunction\s+postToProvider\b/;
/** Where a provider's uses are derived and sent, which must hold no copy of a request. */
const USERS = ['lib/notify/channels/', 'lib/contacts/'];

type Sources = ReadonlyMap<string, string>;

const rel = (file: string) => relative(ROOT, file).split(sep).join('/');

/** Every source of `dirs` with a .ts or .tsx name, by repository path. */
function readAll(dirs: readonly string[]): Sources {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return walk(path);
      return /\.tsx?$/.test(entry.name) ? [path] : [];
    });
  return new Map(dirs.flatMap((dir) => walk(join(ROOT, dir)).map((f) => [rel(f), readFileSync(f, 'utf8')])));
}

/** The repository paths a file imports (relative imports only). */
function importsOf(file: string, source: string): string[] {
  return ts
    .preProcessFile(source, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => rel(resolve(ROOT, dirname(file), specifier)));
}

/**
 * The providers a registry source lists, each with the file its value is imported from:
 * `pushover: pushoverProvider` with `import { pushoverProvider } from './pushover.ts'`.
 */
function registered(registry: string): Record<string, string> {
  const from = new Map(
    [...registry.matchAll(/import\s*\{([^}]*)\}\s*from\s*'\.\/([^']+)'/g)].flatMap(([, names, file]) =>
      (names ?? '').split(',').map((name) => [name.replace(/^\s*type\s+/, '').trim(), file ?? ''] as const),
    ),
  );
  return Object.fromEntries(
    [...registry.matchAll(/^\s*(\w+):\s*(\w+Provider),?\s*$/gm)].map(([, name, value]) => [
      name,
      from.get(value ?? '') ?? `${value}: not imported`,
    ]),
  );
}

/** Imports of provider files that leave the floor, or reach egress by another path than the one POST. */
function providerReach(sources: Sources): string[] {
  return [...sources]
    .filter(([file]) => file.startsWith(`${PROVIDER_DIR}/`))
    .flatMap(([file, source]) =>
      importsOf(file, source)
        .filter((target) => !target.startsWith(`${PROVIDER_DIR}/`))
        .filter((target) => !PROVIDER_FLOOR.some((floor) => target.startsWith(floor)))
        .filter((target) => !(file === PROVIDER_POST && target.startsWith('lib/egress/')))
        .map((target) => `${file} -> ${target}`),
    );
}

/** Files of the providers' users that send HTTP by hand. */
function handSenders(sources: Sources): string[] {
  return [...sources]
    .filter(([file]) => USERS.some((dir) => file.startsWith(dir)))
    .filter(([, source]) => HAND_SENT.test(source))
    .map(([file]) => file);
}

/** Files of lib/providers that are neither a registered provider's, a helper beside one, nor shared. */
function strays(sources: Sources, providers: readonly string[]): string[] {
  const owned = (file: string) =>
    providers.some(
      (name) => file === `${PROVIDER_DIR}/${name}.ts` || file.startsWith(`${PROVIDER_DIR}/${name}-`),
    );
  return [...sources.keys()].filter(
    (file) => file.startsWith(`${PROVIDER_DIR}/`) && !SHARED.includes(file) && !owned(file),
  );
}

/** The console's table of contact method kinds, which gathers them from the providers' forms. */
const CONSOLE_KINDS = 'web/src/contacts/contact-kinds.ts';

/** The kinds a source keys an object by (`sms: {`), but the console's own. */
function kindsWrittenIn(source: string, kinds: readonly string[]): string[] {
  return kinds.filter((kind) => kind !== 'console' && new RegExp(`\\b${kind}\\s*:\\s*\\{`).test(source));
}

/** Every provider and use name: the channel types and the contact method kinds but the console's own. */
const NAMES = [
  ...new Set([...Object.keys(CHANNEL_DEFINITIONS), ...Object.keys(CONTACT_KIND_DEFINITIONS)]),
].filter((name) => name !== 'console');

/**
 * The order lists that keep the API document's order of what came before the provider registry
 * (lib/notify/channels/registry.ts, lib/contacts/kinds/registry.ts `DOCUMENT_ORDER`): a name added
 * later follows them by itself, so they never take a new provider, and are held to these names.
 */
const ORDERED_BEFORE = [
  ...['slack', 'discord', 'webhook', 'nats', 'ntfy', 'email', 'teams', 'google_chat', 'mattermost'],
  ...['matrix', 'pagerduty', 'opsgenie', 'telegram', 'pushover', 'gotify', 'sms', 'voice'],
];

/** The names a `DOCUMENT_ORDER` list of `source` holds, if it has one. */
function orderListed(source: string): string[] {
  const list = /const DOCUMENT_ORDER[^=]*=\s*\[([\s\S]*?)\];/.exec(source)?.[1] ?? '';
  return [...list.matchAll(/'(\w+)'/g)].map(([, name]) => name ?? '');
}

/**
 * How many places a provider takes, counted by its name in paths and registrations:
 *
 * - its own files: the files of lib/ (and of web/src/) whose name is the provider's (`<name>.ts`):
 *   lib/providers/<name>.ts, web/src/notify/channel-forms/<name>.ts (a channel type that is no
 *   provider's: lib/notify/channels/<name>.ts). A large provider may split its file into helpers
 *   beside it (`<name>-*.ts`: e-mail's message, SMS's text); those are parts of the file counted,
 *   not places a new provider must go, and are not counted;
 * - its registrations: every other file with a line that lists it, a key whose value is a
 *   provider, a use or a form (`pushover: pushoverProvider`, `pushover: { channel: …, people: … }`,
 *   `gotify: gotifyChannel`, `sms: smsContact`, `sms: smsForm`) or its name in a `[…] as const`
 *   list of names. A registration is one line of a shared list, and counts as one file touched.
 *
 * Target, in lib and in web/src each: at most 1 file of its own and at most 1 registration, so a
 * new provider touches lib 2 files (its file and lib/providers/registry.ts) and web 2 files (its
 * form and web/src/notify/channel-forms/registry.ts), whether it serves channels, people or both;
 * a name that is only a use of another provider (voice, of SMS's Twilio) takes no place of its
 * own. Not counted: the generated web/src/api/schema.d.ts (`npm run api:types`) and the two
 * `DOCUMENT_ORDER` lists (held to ORDERED_BEFORE above). Before this, a provider serving both was 2
 * files and 1 registration in lib (lib/providers/<name>.ts for its request, its use file
 * lib/notify/channels/<name>.ts, and PROVIDERS in lib/notify/channels/registry.ts): 3 files touched.
 */
interface Places {
  own: string[];
  registered: string[];
}

/**
 * A line listing `name`: a key whose value is a provider, a use or a form, or the name in a
 * constant list of providers (`[…] as const` naming three or more of `names`; a two-word enum such
 * as a status page subscriber's email | webhook is a family of its own).
 */
function registers(source: string, name: string, names: readonly string[] = NAMES): boolean {
  const key = new RegExp(
    `(^|[\\s{,])['"]?${name}['"]?\\s*:\\s*(\\{\\s*(channel|people)\\b|[a-z]\\w*(Provider|Channel|Contact|Form|People)\\b)`,
    'm',
  );
  const lists = source.match(/\[[^\]\n]*\]\s*as const/g) ?? [];
  const listsIt = (list: string) =>
    list.includes(`'${name}'`) && names.filter((other) => list.includes(`'${other}'`)).length >= 3;
  return key.test(source) || lists.some(listsIt);
}

/**
 * Folders of variants of another family whose names a channel type's may match: not a provider's
 * places.
 */
const OTHER_FAMILIES = [
  // The senders of outside alerts (PagerDuty's webhooks coming in): lib/integrations' kinds.
  'lib/integrations/kinds/',
  // The configuration document's kinds (teams: Vigil's teams, not Microsoft Teams).
  'lib/config-doc/kinds/',
];

/** The files of `sources` that are `name`'s own, and those that register it. */
function placesOf(sources: Sources, name: string, names: readonly string[] = NAMES): Places {
  const own = [...sources.keys()]
    .filter((file) => !OTHER_FAMILIES.some((dir) => file.startsWith(dir)))
    .filter((file) => /^[^.]+/.exec(file.split('/').at(-1) ?? '')?.[0] === name);
  const registered = [...sources]
    .filter(([file]) => !own.includes(file) && !file.endsWith('.d.ts'))
    .filter(([, source]) => registers(source, name, names))
    .map(([file]) => file);
  return { own, registered };
}

/** Providers over the target, each with its places. */
function overTarget(lib: Sources, web: Sources, names: readonly string[]) {
  return names.flatMap((name) => {
    const inLib = placesOf(lib, name, names);
    const inWeb = placesOf(web, name, names);
    const over = [inLib, inWeb].some((places) => places.own.length > 1 || places.registered.length > 1);
    return over ? [{ name, lib: inLib, web: inWeb }] : [];
  });
}

describe('a provider is lib 2 files and web 2 files', () => {
  const lib = readAll(['lib']);
  const web = readAll(['web/src']);
  const providers = Object.keys(registered(lib.get(PROVIDER_REGISTRY) ?? ''));

  it('finds each provider and channel type in at most one file of its own and one registration, in lib and in web', () => {
    expect(NAMES).toEqual(expect.arrayContaining(['gotify', 'voice', 'pushover', 'sms', 'email']));
    expect(overTarget(lib, web, NAMES)).toEqual([]);
  });

  it('registers every provider once, in the provider registry and in the forms’ registry, beside its one file', () => {
    expect(providers).toEqual(expect.arrayContaining(['email', 'sms', 'pushover', 'telegram', 'ntfy']));
    for (const name of providers) {
      expect(placesOf(lib, name), name).toEqual({
        own: [`${PROVIDER_DIR}/${name}.ts`],
        registered: [PROVIDER_REGISTRY],
      });
      expect(placesOf(web, name).registered, name).toEqual([FORMS_REGISTRY]);
    }
  });

  it('keeps the document order lists to the names that came before the registry', () => {
    for (const file of ['lib/notify/channels/registry.ts', 'lib/contacts/kinds/registry.ts']) {
      const listed = orderListed(lib.get(file) ?? '');
      expect(listed.length, file).toBeGreaterThan(0);
      expect(
        listed.filter((name) => !ORDERED_BEFORE.includes(name)),
        file,
      ).toEqual([]);
    }
  });

  it('sees a provider in too many places (the checks above can fail)', () => {
    const names = ['pager', 'email', 'sms'];
    const beforeThis: Sources = new Map([
      ['lib/providers/pager.ts', 'export function sendPager() {}'],
      ['lib/notify/channels/pager.ts', 'export const pagerChannel = 1;\nexport const pagerPeople = {};'],
      [
        'lib/notify/channels/registry.ts',
        'export const PROVIDERS = {\n  pager: { channel: pagerChannel, people: pagerPeople },\n};',
      ],
      ['lib/contacts/kinds/pager.ts', 'export const pagerContact = 1;'],
      ['lib/contacts/kinds/registry.ts', 'export const KINDS = { pager: pagerContact };'],
      ['lib/contacts/contact-items.ts', "export const CONTACT_KINDS = ['email', 'sms', 'pager'] as const;"],
      ['lib/subscribers.ts', "export const SUBSCRIBER_KINDS = ['email', 'pager'] as const;"],
      ['lib/other.ts', "const pager: Pager = { chan: 1 }; const words = { pager: 'Pager' };"],
    ]);
    const now: Sources = new Map([
      ['lib/providers/pager.ts', 'export const pagerProvider = { channel, people };'],
      ['lib/providers/pager-text.ts', 'export function pagerText() {}'],
      ['lib/providers/registry.ts', 'export const PROVIDERS = {\n  pager: pagerProvider,\n};'],
      ['lib/subscribers.ts', "export const SUBSCRIBER_KINDS = ['email', 'pager'] as const;"],
    ]);
    const web: Sources = new Map([
      ['web/src/notify/channel-forms/pager.ts', 'export const pagerForm = {};'],
      [FORMS_REGISTRY, 'export const PROVIDER_FORMS = { pager: pagerForm };'],
    ]);
    expect(placesOf(new Map([...beforeThis].slice(0, 3)), 'pager', names)).toEqual({
      own: ['lib/providers/pager.ts', 'lib/notify/channels/pager.ts'],
      registered: ['lib/notify/channels/registry.ts'],
    });
    expect(overTarget(new Map([...beforeThis].slice(0, 3)), web, names).map((o) => o.name)).toEqual([
      'pager',
    ]);
    expect(placesOf(beforeThis, 'pager', names).registered).toEqual([
      'lib/notify/channels/registry.ts',
      'lib/contacts/kinds/registry.ts',
      'lib/contacts/contact-items.ts',
    ]);
    expect(placesOf(now, 'pager', names)).toEqual({
      own: ['lib/providers/pager.ts'],
      registered: ['lib/providers/registry.ts'],
    });
    expect(overTarget(now, web, names)).toEqual([]);
    expect(registers('{ pager: { people: pagerPeople } }', 'pager')).toBe(true);
    expect(registers("{ pager: 'Pager', pagers: pagerProvider }", 'pager')).toBe(false);
    expect(orderListed("const DOCUMENT_ORDER: readonly string[] = [\n  'email',\n  'pager',\n];")).toEqual([
      'email',
      'pager',
    ]);
  });
});

describe('one messaging-provider registry', () => {
  const sources = readAll([PROVIDER_DIR, ...USERS]);
  const providers = registered(sources.get(PROVIDER_REGISTRY) ?? '');

  it('takes each provider from its own file, whatever it serves', () => {
    expect(Object.keys(providers).length).toBeGreaterThanOrEqual(5);
    expect(Object.entries(providers).filter(([name, file]) => file !== `${name}.ts`)).toEqual([]);
  });

  it('derives the channel types and the contact method kinds from it: no provider has a file in notify or contacts', () => {
    const elsewhere = [...sources.keys()].filter((file) =>
      Object.keys(providers).some(
        (name) => USERS.some((dir) => file.startsWith(dir)) && file.endsWith(`/${name}.ts`),
      ),
    );
    expect(elsewhere).toEqual([]);
    const provided = Object.keys(providers).filter((name) => name in CHANNEL_DEFINITIONS);
    expect(provided.length).toBeGreaterThanOrEqual(5);
  });

  it('keeps providers on their floor: the one POST reaches egress, no provider knows a use', () => {
    expect(providerReach(sources)).toEqual([]);
  });

  it('has no channel type and nothing in contacts sending HTTP by hand', () => {
    expect(handSenders(sources)).toEqual([]);
  });

  it('has no file in lib/providers but the providers, their helpers and the shared parts', () => {
    expect(strays(sources, Object.keys(providers))).toEqual([]);
  });

  it('gathers the console’s contact method kinds from the providers’ forms', () => {
    const kinds = Object.keys(CONTACT_KIND_DEFINITIONS);
    expect(kindsWrittenIn(readFileSync(join(ROOT, CONSOLE_KINDS), 'utf8'), kinds)).toEqual([]);
    const forms = readAll(['web/src/notify/channel-forms']);
    const described = kinds.filter((kind) =>
      [...forms.values()].some((f) => kindsWrittenIn(f, [kind]).length > 0),
    );
    expect(described).toEqual(kinds.filter((kind) => kind !== 'console'));
  });

  it('sees each breach (the checks above can fail)', () => {
    const bad: Sources = new Map([
      [PROVIDER_POST, "import { httpRequest } from '../egress/egress.ts';"],
      [`${PROVIDER_DIR}/pager.ts`, "import { messageFor } from '../notify/channels/message.ts';"],
      [`${PROVIDER_DIR}/idle.ts`, "import { x } from './provider-post.ts';"],
      [`${PROVIDER_DIR}/pager-text.ts`, 'export const a = 1;'],
      ['lib/notify/channels/pager.ts', "import { y } from '../../providers/pager.ts';"],
      [
        'lib/contacts/kinds/pager.ts',
        "import { httpRequest } from '../../egress/egress.ts';\nconst sent = () => httpRequest({ url });",
      ],
      ['lib/contacts/copy.ts', 'export async function postToProvider() {}'],
    ]);
    expect(providerReach(bad)).toEqual([`${PROVIDER_DIR}/pager.ts -> lib/notify/channels/message.ts`]);
    expect(handSenders(bad)).toEqual(['lib/contacts/kinds/pager.ts', 'lib/contacts/copy.ts']);
    expect(strays(bad, ['pager'])).toEqual([`${PROVIDER_DIR}/idle.ts`]);
    expect(
      registered(
        "import { pagerProvider } from './pager.ts';\nimport { beeperProvider } from './beeper-uses.ts';\n" +
          'export const PROVIDERS = {\n  pager: pagerProvider,\n  beeper: beeperProvider,\n  fax: faxProvider,\n};',
      ),
    ).toEqual({ pager: 'pager.ts', beeper: 'beeper-uses.ts', fax: 'faxProvider: not imported' });
    expect(
      kindsWrittenIn("export const CONTACT_KINDS = { sms: { label: 'SMS' }, console: {} };", [
        'sms',
        'console',
      ]),
    ).toEqual(['sms']);
  });
});
