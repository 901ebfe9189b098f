import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CONTACT_KIND_DEFINITIONS } from '../../lib/contacts/kinds/registry.ts';
import { CHANNEL_DEFINITIONS } from '../../lib/notify/channels/registry.ts';

/**
 * One messaging-provider registry (issue 76 point 4; STYLE.md "Features and stages (wave 6)", after
 * Grafana OnCall's messaging backends): a provider (its config rules, its request, its error words)
 * is defined once, in lib/providers/<provider>.ts, and an alert channel type
 * (lib/notify/channels/<type>.ts, one line in CHANNEL_DEFINITIONS) and a person's contact method
 * (lib/contacts/kinds/<kind>.ts, one line in CONTACT_KIND_DEFINITIONS) are uses of it:
 *
 * - a provider file reaches the network only through the one provider POST
 *   (lib/providers/provider-post.ts) and knows no use (it imports only lib/domain, lib/platform and
 *   its own folder);
 * - no channel type or contact kind sends HTTP itself (no `httpRequest`, no `undiciRequest`, no
 *   second provider POST): a second copy of a provider's request and error words has nowhere to go;
 * - a provider that serves both alert channels and people (a name that is both a channel type and a
 *   contact kind) is one file both uses import;
 * - every provider file is used;
 * - the console's contact method kinds are gathered from the providers' forms
 *   (web/src/notify/channel-forms/<provider>.ts `people`), not written in a second table.
 *
 * Imports are read with TypeScript's own pre-processor, as imports.test.ts reads them.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const PROVIDERS = 'lib/providers';
const CHANNELS = 'lib/notify/channels';
const KINDS = 'lib/contacts/kinds';
/** The one POST every provider shares. */
const PROVIDER_POST = `${PROVIDERS}/provider-post.ts`;
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
  [...sources.keys()].filter((f) => f.startsWith(`${PROVIDERS}/`) && f !== PROVIDER_POST);

/** Imports of provider files that leave the floor, or reach egress by another path than the one POST. */
function providerReach(sources: Sources): string[] {
  return [...sources]
    .filter(([file]) => file.startsWith(`${PROVIDERS}/`))
    .flatMap(([file, source]) =>
      importsOf(file, source)
        .filter((target) => !target.startsWith(`${PROVIDERS}/`))
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

/** For each name both uses serve: the provider files both import (none: defined twice). */
function sharedProviders(sources: Sources, names: readonly string[]): Record<string, string[]> {
  const providersOf = (file: string) =>
    importsOf(file, sources.get(file) ?? '').filter(
      (t) => t.startsWith(`${PROVIDERS}/`) && t !== PROVIDER_POST,
    );
  return Object.fromEntries(
    names.map((name) => {
      const channel = providersOf(`${CHANNELS}/${name}.ts`);
      const kind = providersOf(`${KINDS}/${name}.ts`);
      return [name, channel.filter((p) => kind.includes(p))];
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

/** Names that are both a channel type and a contact kind: providers serving alerts and people. */
const SERVING_BOTH = Object.keys(CHANNEL_DEFINITIONS).filter((name) =>
  Object.hasOwn(CONTACT_KIND_DEFINITIONS, name),
);

describe('one messaging-provider registry', () => {
  const sources = read([PROVIDERS, CHANNELS, KINDS]);

  it('finds the providers, and the uses that serve both alert channels and people', () => {
    expect(providerFiles(sources).length).toBeGreaterThanOrEqual(5);
    expect(SERVING_BOTH).toEqual(expect.arrayContaining(['email', 'sms', 'pushover', 'telegram', 'ntfy']));
    for (const name of SERVING_BOTH) {
      expect(existsSync(join(ROOT, CHANNELS, `${name}.ts`)), name).toBe(true);
      expect(existsSync(join(ROOT, KINDS, `${name}.ts`)), name).toBe(true);
    }
  });

  it('keeps providers on their floor: the one POST reaches egress, no provider knows a use', () => {
    expect(providerReach(sources)).toEqual([]);
  });

  it('has no channel type or contact kind sending HTTP by hand', () => {
    expect(handSenders(sources)).toEqual([]);
  });

  it('defines a provider that serves alert channels and people once, in a file both uses import', () => {
    const shared = sharedProviders(sources, SERVING_BOTH);
    expect(Object.entries(shared).filter(([, files]) => files.length === 0)).toEqual([]);
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
      [`${PROVIDERS}/pager.ts`, "import { messageFor } from '../notify/channels/message.ts';"],
      [`${PROVIDERS}/idle.ts`, "import { x } from './provider-post.ts';"],
      [`${CHANNELS}/pager.ts`, "import { y } from '../../providers/pager.ts';"],
      [
        `${KINDS}/pager.ts`,
        "import { httpRequest } from '../../egress/egress.ts';\nconst sent = () => httpRequest({ url });",
      ],
      [`${KINDS}/copy.ts`, 'export async function postToProvider() {}'],
    ]);
    expect(providerReach(bad)).toEqual([`${PROVIDERS}/pager.ts -> lib/notify/channels/message.ts`]);
    expect(handSenders(bad)).toEqual([`${KINDS}/pager.ts`, `${KINDS}/copy.ts`]);
    expect(sharedProviders(bad, ['pager'])).toEqual({ pager: [] });
    expect(unusedProviders(bad)).toEqual([`${PROVIDERS}/idle.ts`]);
    expect(
      kindsWrittenIn("export const CONTACT_KINDS = { sms: { label: 'SMS' }, console: {} };", [
        'sms',
        'console',
      ]),
    ).toEqual(['sms']);
  });
});
