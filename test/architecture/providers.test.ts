import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CONTACT_KIND_DEFINITIONS } from '../../lib/contacts/kinds/registry.ts';
import { CHANNEL_DEFINITIONS, PROVIDERS } from '../../lib/notify/channels/registry.ts';

/**
 * One messaging-provider registry (issue 76 point 4; STYLE.md "Features and stages (wave 6)", after
 * Grafana OnCall's messaging backends): a provider (its config rules, its request, its error words)
 * is defined once, in lib/providers/<provider>.ts, and its uses, an alert channel type and the kinds
 * of a person's contact method it serves, are declared in ONE use file,
 * lib/notify/channels/<provider>.ts (`<provider>Channel`, `<provider>People`), listed by one line
 * in the one provider registry (PROVIDERS, lib/notify/channels/registry.ts), from which both the
 * channel types (CHANNEL_DEFINITIONS) and the contact method kinds (CONTACT_KIND_DEFINITIONS, with
 * the console's own) are derived:
 *
 * - a provider file reaches the network only through the one provider POST
 *   (lib/providers/provider-post.ts) and knows no use (it imports only lib/domain, lib/platform and
 *   its own folder);
 * - no use sends HTTP itself (no `httpRequest`, no `undiciRequest`, no second provider POST): a
 *   second copy of a provider's request and error words has nowhere to go;
 * - a provider's uses come from one file, whatever it serves, and lib/contacts holds no provider's
 *   kind of its own;
 * - every provider file is used;
 * - the console's contact method kinds are gathered from the providers' forms
 *   (web/src/notify/channel-forms/<provider>.ts `people`), not written in a second table.
 *
 * Imports are read with TypeScript's own pre-processor, as imports.test.ts reads them.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const PROVIDER_DIR = 'lib/providers';
const CHANNELS = 'lib/notify/channels';
const KINDS = 'lib/contacts/kinds';
const REGISTRY = `${CHANNELS}/registry.ts`;
/** The one POST every provider shares. */
const PROVIDER_POST = `${PROVIDER_DIR}/provider-post.ts`;
/** What a provider file may import besides its own folder. */
const PROVIDER_FLOOR = ['lib/domain/', 'lib/platform/'];
/** Sending HTTP by hand: the egress client and its transport. */
const HAND_SENT = /\b(httpRequest|undiciRequest)\s*\(|\bfunction\s+postToProvider\b/;

type Sources = ReadonlyMap<string, string>;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const rel = (file: string) => relative(ROOT, file).split(sep).join('/');

/** The repository's files under `dirs`, by repository path. */
function read(dirs: readonly string[]): Sources {
  return new Map(
    dirs.flatMap((dir) => tsFiles(join(ROOT, dir)).map((f) => [rel(f), readFileSync(f, 'utf8')])),
  );
}

/** The repository paths a file imports (relative imports only). */
function importsOf(file: string, source: string): string[] {
  return ts
    .preProcessFile(source, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => rel(resolve(ROOT, dirname(file), specifier)));
}

const providerFiles = (sources: Sources) =>
  [...sources.keys()].filter((f) => f.startsWith(`${PROVIDER_DIR}/`) && f !== PROVIDER_POST);

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

/** Channel and contact kind files that send HTTP by hand. */
function handSenders(sources: Sources): string[] {
  return [...sources]
    .filter(([file]) => file.startsWith(`${CHANNELS}/`) || file.startsWith(`${KINDS}/`))
    .filter(([, source]) => HAND_SENT.test(source))
    .map(([file]) => file);
}

/**
 * For each line of the provider registry, the files its uses are imported from (one: the
 * provider's use file), read from the registry's own text: `name: { channel: a, people: b }`.
 */
function useFiles(registry: string): Record<string, string[]> {
  const from = new Map(
    [...registry.matchAll(/import\s*\{([^}]*)\}\s*from\s*'\.\/([^']+)'/g)].flatMap(([, names, file]) =>
      (names ?? '').split(',').map((name) => [name.replace(/^\s*type\s+/, '').trim(), file] as const),
    ),
  );
  return Object.fromEntries(
    [
      ...registry.matchAll(
        /^\s*(\w+):\s*\{\s*channel:\s*(\w+)(?:,\s*people:\s*(\w+))?\s*\}|^\s*(\w+):\s*\{\s*people:\s*(\w+)\s*\}/gm,
      ),
    ].map((m) => {
      const uses = [m[2], m[3], m[5]].filter((use): use is string => use !== undefined);
      return [m[1] ?? m[4], [...new Set(uses.map((use) => from.get(use) ?? `${use}: not imported`))]];
    }),
  );
}

/** Provider files no channel type or contact kind imports. */
function unusedProviders(sources: Sources): string[] {
  const used = new Set(
    [...sources]
      .filter(([file]) => file.startsWith(`${CHANNELS}/`) || file.startsWith(`${KINDS}/`))
      .flatMap(([file, source]) => importsOf(file, source)),
  );
  return providerFiles(sources).filter((p) => !used.has(p));
}

/** The console's table of contact method kinds, which gathers them from the providers' forms. */
const CONSOLE_KINDS = 'web/src/contacts/contact-kinds.ts';

/** The kinds a source keys an object by (`sms: {`), but the console's own. */
function kindsWrittenIn(source: string, kinds: readonly string[]): string[] {
  return kinds.filter((kind) => kind !== 'console' && new RegExp(`\\b${kind}\\s*:\\s*\\{`).test(source));
}

/** The providers that serve both alert channels and people. */
const SERVING_BOTH = Object.entries(PROVIDERS)
  .filter(([, uses]) => 'channel' in uses && 'people' in uses)
  .map(([name]) => name);

/** Every provider and use name: the channel types and the contact method kinds but the console's own. */
const NAMES = [
  ...new Set([...Object.keys(CHANNEL_DEFINITIONS), ...Object.keys(CONTACT_KIND_DEFINITIONS)]),
].filter((name) => name !== 'console');

/**
 * How many places a provider takes (issue 76 point 4: "a new provider is lib 2 + web 2 files whether
 * it serves channels, people or both"), counted by its name in paths and registrations:
 *
 * - its own files: the files of lib/ (and of web/src/) whose name is the provider's (`<name>.ts`):
 *   lib/providers/<name>.ts (its config rules, request, error words) and its one use file
 *   lib/notify/channels/<name>.ts (its alert channel, its people or both); web/src/notify/
 *   channel-forms/<name>.ts. A large provider may split a file of its own into helpers beside it
 *   (`<name>-*.ts`: e-mail's message and runtime transports, SMS's text); those are parts of the
 *   files counted, not places a new provider must go, and are not counted;
 * - its registrations: every file with a line that lists it, a key whose value is a use
 *   (`pushover: { channel: …, people: … }`, `pushover: pushoverChannel`, `sms: smsContact`,
 *   `sms: smsForm`) or its name in a `[…] as const` list of names. A registration is one line of a
 *   shared list, and counts as one place touched.
 *
 * Target: in lib at most 2 files of its own and exactly 1 registration (the one provider registry,
 * which the channel types and the contact method kinds are derived from); in web/src at most 1 file
 * of its own (its form: channel fields and/or people's words) and at most 1 registration (its form's
 * line). So a new provider touches lib 2 files + 1 line and web 1 file + 1 line, whether it serves
 * channels, people or both; a name that is only a use of another provider (voice, of SMS's Twilio)
 * takes no place of its own. Counted as files touched, that is 3 in lib (2 files and the registry)
 * and 2 in web (the form and its registry); the generated web/src/api/schema.d.ts (`npm run
 * api:types`) is not counted, nor is lib/contacts/kinds/registry.ts's document order, which keeps
 * the API document's order of the kinds that came first and takes no kind added later. Before this,
 * a provider serving both was 3 files and 3 registrations in lib (lib/providers,
 * lib/notify/channels, lib/contacts/kinds; CHANNEL_DEFINITIONS, CONTACT_KIND_DEFINITIONS and the
 * stored CONTACT_KINDS list), and a provider serving people only had no form of its own in web
 * (PROVIDER_FORMS takes one with `people` alone).
 */
interface Places {
  own: string[];
  registered: string[];
}

/**
 * A line listing `name`: a key whose value is a use or a form, or the name in a constant list of
 * providers (`[…] as const` naming three or more of `names`; a two-word enum such as a status page
 * subscriber's email | webhook is a family of its own).
 */
function registers(source: string, name: string, names: readonly string[] = NAMES): boolean {
  const key = new RegExp(
    `(^|[\\s{,])['"]?${name}['"]?\\s*:\\s*(\\{\\s*(channel|people)\\b|[a-z]\\w*(Channel|Contact|Form|People)\\b)`,
    'm',
  );
  const lists = source.match(/\[[^\]\n]*\]\s*as const/g) ?? [];
  const listsIt = (list: string) =>
    list.includes(`'${name}'`) && names.filter((other) => list.includes(`'${other}'`)).length >= 3;
  return key.test(source) || lists.some(listsIt);
}

/** The files of `sources` that are `name`'s own, and those that register it. */
function placesOf(sources: Sources, name: string, names: readonly string[] = NAMES): Places {
  const own = [...sources.keys()].filter((file) => /^[^.]+/.exec(file.split('/').at(-1) ?? '')?.[0] === name);
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
    const over =
      inLib.own.length > 2 ||
      inLib.registered.length > 1 ||
      inWeb.own.length > 1 ||
      inWeb.registered.length > 1;
    return over ? [{ name, lib: inLib, web: inWeb }] : [];
  });
}

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

describe('a provider takes lib 2 files + 1 line and web 1 file + 1 line', () => {
  const lib = readAll(['lib']);
  const web = readAll(['web/src']);

  it('finds each provider in at most that many places, whatever it serves', () => {
    expect(NAMES).toEqual(expect.arrayContaining(['gotify', 'voice', 'pushover', 'sms', 'email']));
    expect(overTarget(lib, web, NAMES)).toEqual([]);
  });

  it('registers every provider once, in lib and in web', () => {
    for (const name of Object.keys(PROVIDERS)) {
      expect(placesOf(lib, name).registered, name).toEqual([REGISTRY]);
      expect(placesOf(web, name).registered, name).toEqual(['web/src/notify/channel-forms/registry.ts']);
    }
  });

  it('sees a provider in too many places (the checks above can fail)', () => {
    const bad: Sources = new Map([
      ['lib/providers/pager.ts', 'export const send = 1;'],
      ['lib/notify/channels/pager.ts', 'export const pagerChannel = 1;'],
      ['lib/contacts/kinds/pager.ts', 'export const pagerContact = 1;'],
      ['lib/notify/channels/registry.ts', 'export const CHANNEL_DEFINITIONS = {\n  pager: pagerChannel,\n};'],
      ['lib/contacts/kinds/registry.ts', 'export const KINDS = { pager: pagerContact };'],
      ['lib/contacts/contact-items.ts', "export const CONTACT_KINDS = ['email', 'sms', 'pager'] as const;"],
      ['lib/subscribers.ts', "export const SUBSCRIBER_KINDS = ['email', 'pager'] as const;"],
      ['lib/other.ts', "const pager: Pager = { channel: 1 }; const words = { pager: 'Pager' };"],
    ]);
    const good: Sources = new Map([
      ['web/src/notify/channel-forms/pager.ts', 'export const pagerForm = {};'],
      ['web/src/notify/channel-forms/registry.ts', 'export const PROVIDER_FORMS = { pager: pagerForm };'],
    ]);
    expect(placesOf(bad, 'pager', ['pager', 'email', 'sms'])).toEqual({
      own: ['lib/providers/pager.ts', 'lib/notify/channels/pager.ts', 'lib/contacts/kinds/pager.ts'],
      registered: [
        'lib/notify/channels/registry.ts',
        'lib/contacts/kinds/registry.ts',
        'lib/contacts/contact-items.ts',
      ],
    });
    expect(overTarget(bad, good, ['pager', 'email', 'sms']).map((o) => o.name)).toEqual(['pager']);
    expect(overTarget(new Map([...bad].slice(0, 2)), good, ['pager'])).toEqual([]);
    expect(registers('{ pager: { people: pagerPeople } }', 'pager')).toBe(true);
    expect(registers("{ pager: 'Pager', pagers: pagerChannel }", 'pager')).toBe(false);
  });
});

describe('one messaging-provider registry', () => {
  const sources = read([PROVIDER_DIR, CHANNELS, KINDS]);

  it('finds the providers, and the uses that serve both alert channels and people', () => {
    expect(providerFiles(sources).length).toBeGreaterThanOrEqual(5);
    expect(SERVING_BOTH).toEqual(expect.arrayContaining(['email', 'sms', 'pushover', 'telegram', 'ntfy']));
    for (const name of SERVING_BOTH) {
      expect(existsSync(join(ROOT, CHANNELS, `${name}.ts`)), name).toBe(true);
      expect(existsSync(join(ROOT, KINDS, `${name}.ts`)), name).toBe(false);
    }
  });

  it('derives the contact method kinds from the providers’ people uses, and the console’s own', () => {
    const served = Object.values(PROVIDERS).flatMap((uses) =>
      'people' in uses ? Object.keys(uses.people) : [],
    );
    expect(Object.keys(CONTACT_KIND_DEFINITIONS).sort()).toEqual([...served, 'console'].sort());
    expect(Object.keys(CHANNEL_DEFINITIONS)).toEqual(
      Object.keys(PROVIDERS).filter((n) => 'channel' in PROVIDERS[n as keyof typeof PROVIDERS]),
    );
  });

  it('keeps providers on their floor: the one POST reaches egress, no provider knows a use', () => {
    expect(providerReach(sources)).toEqual([]);
  });

  it('has no channel type or contact kind sending HTTP by hand', () => {
    expect(handSenders(sources)).toEqual([]);
  });

  it('declares each provider’s uses in one file, whatever it serves', () => {
    const files = useFiles(sources.get(REGISTRY) ?? '');
    expect(Object.keys(files)).toEqual(Object.keys(PROVIDERS));
    expect(Object.entries(files).filter(([, from]) => from.length !== 1)).toEqual([]);
  });

  it('uses every provider', () => {
    expect(unusedProviders(sources)).toEqual([]);
  });

  it('gathers the console’s contact method kinds from the providers’ forms', () => {
    const kinds = Object.keys(CONTACT_KIND_DEFINITIONS);
    expect(kindsWrittenIn(readFileSync(join(ROOT, CONSOLE_KINDS), 'utf8'), kinds)).toEqual([]);
    const forms = read(['web/src/notify/channel-forms']);
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
      [`${CHANNELS}/pager.ts`, "import { y } from '../../providers/pager.ts';"],
      [
        `${KINDS}/pager.ts`,
        "import { httpRequest } from '../../egress/egress.ts';\nconst sent = () => httpRequest({ url });",
      ],
      [`${KINDS}/copy.ts`, 'export async function postToProvider() {}'],
    ]);
    expect(providerReach(bad)).toEqual([`${PROVIDER_DIR}/pager.ts -> lib/notify/channels/message.ts`]);
    expect(handSenders(bad)).toEqual([`${KINDS}/pager.ts`, `${KINDS}/copy.ts`]);
    expect(
      useFiles(
        "import { pagerChannel } from './pager.ts';\nimport { pagerPeople } from './pager-people.ts';\n" +
          "import { beeperPeople } from './beeper.ts';\nexport const PROVIDERS = {\n" +
          '  pager: { channel: pagerChannel, people: pagerPeople },\n  beeper: { people: beeperPeople },\n};',
      ),
    ).toEqual({ pager: ['pager.ts', 'pager-people.ts'], beeper: ['beeper.ts'] });
    expect(unusedProviders(bad)).toEqual([`${PROVIDER_DIR}/idle.ts`]);
    expect(
      kindsWrittenIn("export const CONTACT_KINDS = { sms: { label: 'SMS' }, console: {} };", [
        'sms',
        'console',
      ]),
    ).toEqual(['sms']);
  });
});
