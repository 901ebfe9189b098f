/**
 * What every part of the Uptime Kuma conversion shares: the list of lines it could not map, and
 * the `${ENV}` names that stand for Kuma's secrets in the document (the value never leaves the
 * Kuma file: the user sets each name in the environment of `vigil plan`/`apply`).
 */

/** Kuma's stored values are loosely typed (SQLite integers for booleans, numbers as strings). */
export type Loose = Record<string, unknown>;

export class KumaContext {
  readonly unmapped: string[] = [];
  private readonly envNames = new Set<string>();
  private readonly envLines: string[] = [];

  /** Records one thing left out, as a line naming it and why. */
  skip(line: string): void {
    this.unmapped.push(line);
  }

  /**
   * A `${ENV}` reference for a secret of `owner` (a notification or a monitor), unique in the
   * document, with one line telling the user which value to set it to.
   */
  secret(owner: string, field: string, what: string): string {
    const base = `KUMA_${envWord(owner)}_${envWord(field)}`;
    let name = base;
    for (let n = 2; this.envNames.has(name); n++) name = `${base}_${n}`;
    this.envNames.add(name);
    this.envLines.push(`secret: set ${name} to ${what} (the document refers to it as \${${name}})`);
    return `\${${name}}`;
  }

  /** The unmapped lines, then the secrets to set, each once. */
  lines(): string[] {
    return [...this.unmapped, ...this.envLines];
  }
}

/** An upper-case environment word: `Ops Slack` → `OPS_SLACK`. */
function envWord(text: string): string {
  const word = text
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
  return word === '' ? 'X' : word.slice(0, 40);
}

/** A string of a loose value, or undefined for null, undefined and the empty string. */
export function text(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  const s = String(value).trim();
  return s === '' ? undefined : s;
}

/** A number of a loose value (SQLite and Kuma's forms send numbers as strings too). */
export function num(value: unknown): number | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** A boolean of a loose value: SQLite stores 0 and 1. */
export function flag(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

/** A slug of a name: lower-case letters, digits and hyphens, at most 63 (lib/domain/formats/slug.ts SLUG). */
export function slugOf(name: string, fallback: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 56)
    .replace(/-+$/, '');
  return slug === '' ? fallback : slug;
}

/** A name not yet taken in `taken` (which it joins): `api`, `api-2`, … */
export function unique(name: string, taken: Set<string>, join = '-'): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name}${join}${n}`;
  taken.add(candidate);
  return candidate;
}
