/** HTML void elements: they have no end tag. */
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

/**
 * The problems of a page's tags, none when every element opened is closed in order (void elements
 * aside) and no `<`, `>` or `&` stands unescaped in text: a small well-formedness check, since the
 * HTML is written by hand-made string templates.
 */
export function tagProblems(html: string): string[] {
  const problems: string[] = [];
  const open: string[] = [];
  const body = html.replace(/^<!doctype html>/i, '');
  const tag = /<(\/?)([a-z][a-z0-9]*)((?:\s+[a-z-]+(?:="[^"<>]*")?)*)\s*>/g;
  let at = 0;
  for (const match of body.matchAll(tag)) {
    const text = body.slice(at, match.index);
    if (/[<>]|&(?![a-z]+;|#[0-9]+;)/i.test(text))
      problems.push(`unescaped text before ${match[0]}: ${text.slice(0, 60)}`);
    at = match.index + match[0].length;
    const [, closing, rawName] = match;
    const name = (rawName ?? '').toLowerCase();
    if (VOID.has(name)) continue;
    if (closing) {
      const last = open.pop();
      if (last !== name) problems.push(`</${name}> closes <${last ?? 'nothing'}>`);
    } else open.push(name);
  }
  if (/[<>]/.test(body.slice(at))) problems.push('unescaped text at the end');
  if (open.length > 0) problems.push(`left open: ${open.join(', ')}`);
  return problems;
}
