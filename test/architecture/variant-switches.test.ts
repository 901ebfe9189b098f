import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CHECK_TYPE_DEFINITIONS } from '../../lib/check-types/registry.ts';
import { CHANNEL_DEFINITIONS } from '../../lib/notify/channels/registry.ts';

/**
 * One file per variant (issue 38, CONTRIBUTING.md "Adding a messaging provider"): a variant's name is
 * switched on only in its own definition file and the registries. Anywhere else in lib/ and
 * web/src/, these fail: `case '<name>':`, `=== '<name>'` / `!== '<name>'` (either side, `==` and
 * `!=` too), `z.literal('<name>')`, a type literal `'<name>'` (`Extract<X, {channel_type: 'slack'}>`,
 * `T extends 'slack' ? …`), and an object keyed by two or more of a family's names (a per-type
 * table beside the registry). Code that needs to know a type asks its definition instead.
 *
 * Each family below lists its names (read from its registry) and where they may appear; a
 * pattern's `{name}` is each name in turn (a type's name is allowed only in its own files), `*`
 * any characters but `/`. An exception names its file, its name and why.
 */

interface Family {
  /** What the names are, for the failure message. */
  what: string;
  names: readonly string[];
  /** Repository paths where the names may be switched on. */
  allowedFiles: readonly string[];
  exceptions: readonly { file: string; name: string; reason: string }[];
}

const FAMILIES: readonly Family[] = [
  {
    what: 'channel type',
    names: Object.keys(CHANNEL_DEFINITIONS),
    allowedFiles: [
      'lib/notify/channels/{name}.ts',
      // A definition's own helpers beside it (email-smtp.ts, email-message.ts).
      'lib/notify/channels/{name}-*.ts',
      'lib/notify/channels/registry.ts',
      // A messaging provider's one file (its channel and its people uses), its helpers, and the provider registry.
      'lib/providers/{name}.ts',
      'lib/providers/{name}-*.ts',
      'lib/providers/registry.ts',
      'web/src/notify/channel-forms/{name}.ts',
      'web/src/notify/channel-forms/registry.ts',
      // Importers key tables by another product's own type names (Kuma's "slack", "webhook"),
      // which the converted document then names as Vigil types: not a switch on Vigil's channels.
      'lib/importers/*.ts',
      // Generated from the API document (npm run api:types).
      'web/src/api/schema.d.ts',
      // A status page subscriber's kind (email | webhook) is a two-word enum of its own, not a channel type.
      'lib/status-pages/subscribers/*.ts',
      // A contact method's kind (email, sms, voice, pushover, telegram, ntfy, console) is a family of its
      // own, declared by its provider's file and gathered in lib/contacts/kinds/registry.ts; its
      // provider accounts are lent by the account's shared channels of those types (provider-accounts.ts):
      // not a switch on a channel type.
      'lib/contacts/kinds/*.ts',
      // The console's table of those kinds (their words and address fields), checked against the API's kinds by tsc.
      'web/src/contacts/contact-kinds.ts',
      // Importers translate another product's names (its providers, its monitor types) into
      // Vigil's: their tables are the mapping itself, not a switch on a type Vigil runs.
      'lib/importers/*.ts',
    ],
    exceptions: [
      ...['email', 'nats', 'sms'].map((name) => ({
        file: 'lib/notify/channels/index.ts',
        name,
        reason:
          'ChannelSendDeps (definition.ts) names the runtime’s email transport, NATS publisher and SMS transport: outbound paths a definition may use, built once here, not a switch on the type',
      })),
      ...['email', 'sms'].map((name) => ({
        file: 'lib/contacts/reach.ts',
        name,
        reason:
          'PersonSendDeps (lib/providers/person-use.ts) names the runtime’s email and SMS transports: outbound paths a provider’s people use may use, built once here, not a switch on a type',
      })),
    ],
  },
  {
    what: 'check type',
    // http and push are kinds of their own in the contract (HttpCheckType, PushCheckType: top-level
    // request fields, no probe) that generic code may name; every type configured by `config`
    // alone (tcp, tls, dns, and those added after them) is named only in its own files.
    names: Object.entries(CHECK_TYPE_DEFINITIONS)
      .filter(([, definition]) => !('kind' in definition))
      .map(([name]) => name),
    allowedFiles: [
      // A type's own folder: its definition, its probe and their helpers.
      'lib/check-types/{name}/*.ts',
      'lib/check-types/registry.ts',
      // The probes' registry, apart from the shapes' so that importing a shape loads no client.
      'lib/check-types/probing/probe-registry.ts',
      'web/src/checks/check-types/{name}.ts',
      'web/src/checks/check-types/registry.ts',
      // Generated from the API document (npm run api:types).
      'web/src/api/schema.d.ts',
      // Importers translate another product's monitor types into Vigil's (see above).
      'lib/importers/*.ts',
    ],
    exceptions: [],
  },
];

const ROOT = resolve(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const rel = (file: string) => relative(ROOT, file).split(sep).join('/');

/** Whether `file` matches a pattern with `{name}` already put in (`*`: any characters but `/`). */
function matches(pattern: string, file: string): boolean {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
  return new RegExp(`^${escaped}$`).test(file);
}

function allowed(family: Family, file: string, name: string): boolean {
  return (
    family.allowedFiles.some((pattern) => matches(pattern.replaceAll('{name}', name), file)) ||
    family.exceptions.some((e) => e.file === file && e.name === name)
  );
}

const EQUALITY = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

const literalText = (node: ts.Node | undefined): string | undefined =>
  node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;

function propertyName(node: ts.ObjectLiteralElementLike): string | undefined {
  if (!node.name) return undefined;
  if (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) return node.name.text;
  return undefined;
}

/** `line: what` for each switch on one of `names` in the source text. */
function switchesIn(
  fileName: string,
  text: string,
  names: ReadonlySet<string>,
): { name: string; at: string }[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const found: { name: string; at: string }[] = [];
  const hit = (node: ts.Node, name: string | undefined, what: string) => {
    if (name === undefined || !names.has(name)) return;
    found.push({ name, at: `${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}` });
  };
  const visit = (node: ts.Node) => {
    if (ts.isCaseClause(node))
      hit(node, literalText(node.expression), `case '${literalText(node.expression)}'`);
    if (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.kind)) {
      const name = literalText(node.left) ?? literalText(node.right);
      hit(node, name, `${node.operatorToken.getText()} '${name}'`);
    }
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'literal'
    ) {
      const name = literalText(node.arguments[0]);
      hit(node, name, `literal('${name}')`);
    }
    if (ts.isLiteralTypeNode(node)) {
      const name = literalText(node.literal);
      hit(node, name, `type '${name}'`);
    }
    if (ts.isObjectLiteralExpression(node)) {
      const keys = node.properties.map(propertyName).filter((key) => key !== undefined && names.has(key));
      if (keys.length >= 2) for (const key of keys) hit(node, key, `an object keyed by ${keys.join(', ')}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

const FILES = [...sourceFiles(join(ROOT, 'lib')), ...sourceFiles(join(ROOT, 'web', 'src'))];

describe('variants are switched on only in their own files and registries', () => {
  for (const family of FAMILIES) {
    it(`keeps every ${family.what} name out of switches elsewhere`, () => {
      expect(family.names.length).toBeGreaterThan(1);
      const names = new Set(family.names);
      const strays = FILES.flatMap((file) =>
        switchesIn(file, readFileSync(file, 'utf8'), names)
          .filter((s) => !allowed(family, rel(file), s.name))
          .map((s) => `${rel(file)}:${s.at}`),
      );
      expect(strays).toEqual([]);
    });

    it(`gives every ${family.what} exception a reason and a file that exists`, () => {
      for (const e of family.exceptions) {
        expect(e.reason.length).toBeGreaterThan(10);
        expect(FILES.map(rel)).toContain(e.file);
      }
    });
  }

  it('sees each kind of switch (the check above can fail)', () => {
    const names = new Set(['slack', 'email']);
    const source = [
      "switch (c.channel_type) { case 'slack': break; }",
      "if (c.channel_type === 'email') {}",
      "if ('slack' !== type) {}",
      "const v = z.literal('email');",
      "type S = Extract<R, { channel_type: 'slack' }>;",
      "const hints = { slack: 'a', email: 'b' };",
      // Not switches: a lone key, another word, a comparison to something else.
      "const user = { email: 'a@example.com' }; if (kind === 'password') {}",
    ].join('\n');
    expect(switchesIn('probe.tsx', source, names).map((s) => s.at.split(':')[0])).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '6',
    ]);
    // A type's name is allowed in its own definition file only, not in another type's.
    const family = FAMILIES[0];
    expect(family && allowed(family, 'lib/notify/channels/slack.ts', 'slack')).toBe(true);
    expect(family && allowed(family, 'lib/notify/channels/slack.ts', 'email')).toBe(false);
    expect(family && allowed(family, 'lib/notify/channels/email-smtp.ts', 'email')).toBe(true);
    expect(family && allowed(family, 'lib/notify/api-schemas/responses.ts', 'email')).toBe(false);
  });
});
