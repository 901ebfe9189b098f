import type { PublicState } from './public-view.ts';

/**
 * A shields-style badge of a page's overall state: a grey label (the page's title, clipped) and a
 * coloured state word. Text is escaped for XML; widths are estimated from the character count
 * (no font metrics on the server), generous enough for the usual fonts.
 */

const WORD: Record<PublicState, string> = {
  up: 'up',
  degraded: 'degraded',
  down: 'down',
  unknown: 'unknown',
};
const COLOR: Record<PublicState, string> = {
  up: '#16794a',
  degraded: '#8a5a00',
  down: '#b3261e',
  unknown: '#5b6470',
};
const MAX_LABEL = 40;

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};
const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c);

const widthOf = (text: string) => Math.round([...text].length * 7 + 12);

/**
 * Anything outside XML 1.0's Char production (https://www.w3.org/TR/xml/#NT-Char): C0 controls but
 * tab, LF and CR; lone surrogates; U+FFFE and U+FFFF. One of them makes the whole SVG malformed (a
 * broken image), so they are removed; the `u` flag makes a lone surrogate a code point of its own.
 */
const XML_INVALID = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
/** Valid but unwanted in a one-line label: tab, LF, CR and DEL each become a space. */
const LINE_BREAKING = /[\t\n\r\u007f]/g;

/** The title as badge text: XML-valid characters only, on one line. */
const badgeText = (text: string) => text.replace(XML_INVALID, '').replace(LINE_BREAKING, ' ');

/** The badge's word: "maintenance" (blue) when a window covers an entity and nothing outside it is wrong. */
export function renderBadge(title: string, state: PublicState, maintenance = false): string {
  const shown = maintenance && (state === 'up' || state === 'unknown');
  const chars = [...badgeText(title)];
  const label = chars.length > MAX_LABEL ? `${chars.slice(0, MAX_LABEL - 1).join('')}…` : chars.join('');
  const word = shown ? 'maintenance' : WORD[state];
  const left = widthOf(label);
  const right = widthOf(word);
  const total = left + right;
  const text = escapeXml(`${label}: ${word}`);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${total}" height="20" role="img" aria-label="${text}">`,
    `<title>${text}</title>`,
    `<rect width="${left}" height="20" fill="#555"/>`,
    `<rect x="${left}" width="${right}" height="20" fill="${shown ? '#1f5fa8' : COLOR[state]}"/>`,
    '<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle">',
    `<text x="${left / 2}" y="14">${escapeXml(label)}</text>`,
    `<text x="${left + right / 2}" y="14">${word}</text>`,
    '</g></svg>',
  ].join('');
}
