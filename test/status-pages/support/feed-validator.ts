import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * A real validator for the feeds: xmllint (libxml2) checks the document against a RELAX NG
 * schema in ../fixtures: RFC 4287 Appendix B for Atom, and for RSS 2.0 (which has no official
 * schema) one written from the RSS Advisory Board's specification, each with its source named in
 * the .rnc. The Atom schema's two Schematron rules (which RELAX NG validators skip) are checked
 * here by XPath: an author on the feed or on every entry, a link or content on every entry.
 */

const run = promisify(execFile);
const XMLLINT = '/usr/bin/xmllint';
const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const SCHEMAS = { rss: join(FIXTURES, 'rss-2.0.rng'), atom: join(FIXTURES, 'atom-rfc4287.rng') } as const;

async function xmllint(args: string[]): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout, stderr } = await run(XMLLINT, args, { encoding: 'utf8', timeout: 20_000 });
    return { ok: true, output: `${stdout}${stderr}` };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; code?: unknown };
    if (typeof e.code !== 'number') throw error;
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

async function withFile<T>(xml: string, use: (path: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'vigil-feed-'));
  try {
    const path = join(dir, 'feed.xml');
    await writeFile(path, xml);
    return await use(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The validator's complaints about a feed ([] when it is valid). */
export function feedProblems(format: 'rss' | 'atom', xml: string): Promise<string[]> {
  return withFile(xml, async (path) => {
    const schema = await xmllint(['--noout', '--nonet', '--relaxng', SCHEMAS[format], path]);
    const problems = schema.ok ? [] : schema.output.split('\n').filter((l) => l.trim() !== '');
    if (format === 'atom' && schema.ok) {
      const rule = async (xpath: string, message: string) => {
        const found = await xmllint(['--nonet', '--xpath', `boolean(${xpath})`, path]);
        if (found.output.trim() !== 'true') problems.push(message);
      };
      const a = (name: string) => `*[local-name()='${name}']`;
      await rule(
        `/${a('feed')}/${a('author')} or not(/${a('feed')}/${a('entry')}[not(${a('author')})])`,
        'an atom:feed without an author has an entry without one',
      );
      await rule(
        `not(//${a('entry')}[not(${a('link')}[not(@rel) or @rel='alternate'] or ${a('content')})])`,
        'an atom:entry has neither an alternate link nor content',
      );
    }
    return problems;
  });
}

/** One XPath string value of a feed (element names by local name: `*[local-name()='title']`). */
export function feedText(xml: string, xpath: string): Promise<string> {
  return withFile(xml, async (path) => {
    const result = await xmllint(['--nonet', '--xpath', `string(${xpath})`, path]);
    if (!result.ok) throw new Error(`xmllint --xpath failed: ${result.output}`);
    return result.output.replace(/\n$/, '');
  });
}
