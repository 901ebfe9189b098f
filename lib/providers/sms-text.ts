import type { AlertMessage, DigestMessage } from './message.ts';

/**
 * An alert as SMS text within MAX_SEGMENTS segments: 160 GSM-7 septets in one message, 153 per
 * part of a concatenated one (the extension characters ^{}\[~]|€ take two); 70 UTF-16 units, 67
 * per part, when the text needs a character GSM-7 lacks (UCS-2). Carriers bill per segment, so
 * the text keeps the headline, then the reason, then the console link, then what else fits.
 */

export const MAX_SEGMENTS = 2;

const GSM_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
const GSM_EXTENSION = new Set('^{}\\[~]|€\f');

/** Septets in GSM-7, or undefined when a character needs UCS-2. */
function septets(text: string): number | undefined {
  let n = 0;
  for (const c of text) {
    if (GSM_BASIC.has(c)) n += 1;
    else if (GSM_EXTENSION.has(c)) n += 2;
    else return undefined;
  }
  return n;
}

/** How many SMS segments the text takes. */
export function smsSegments(text: string): number {
  const gsm = septets(text);
  if (gsm !== undefined) return gsm <= 160 ? 1 : Math.ceil(gsm / 153);
  return text.length <= 70 ? 1 : Math.ceil(text.length / 67);
}

const fits = (text: string) => smsSegments(text) <= MAX_SEGMENTS;

/** Common symbols GSM-7 lacks, spelled in it, so one arrow does not halve the room. */
function gsmFriendly(text: string): string {
  return text
    .replace(/→/g, '->')
    .replace(/…/g, '...')
    .replace(/[—–]/g, '-')
    .replace(/[“”]/g, '"')
    .replace(/[‘’]/g, "'");
}

/** The first piece, cut (with "...") until it fits alone. */
function cut(text: string): string {
  if (fits(text)) return text;
  let chars = [...text];
  while (chars.length > 0 && !fits(`${chars.join('')}...`))
    chars = chars.slice(0, -Math.max(1, chars.length >> 4));
  return `${chars.join('')}...`;
}

/** The headline, then each further piece that still fits (a piece too long is left out whole). */
function fitPieces(first: string, rest: string[]): string {
  let text = cut(gsmFriendly(first));
  for (const piece of rest) {
    const candidate = `${text}\n${gsmFriendly(piece)}`;
    if (fits(candidate)) text = candidate;
  }
  return text;
}

const REASON = new Set(['Reason', 'Last error', 'Why']);

/** An alert's SMS: "Vigil: <title>", the note, the reason, the link, then the other facts. */
export function smsAlertText(message: AlertMessage): string {
  const facts = message.facts.map((f) => ({ ...f, line: `${f.label}: ${f.value}` }));
  return fitPieces(`Vigil: ${message.title}`, [
    ...(message.note ? [message.note] : []),
    ...facts.filter((f) => REASON.has(f.label)).map((f) => f.line),
    ...(message.link ? [message.link] : []),
    ...facts.filter((f) => !REASON.has(f.label) && f.label !== 'Kind').map((f) => f.line),
  ]);
}

/** A digest part's SMS: the title, the summary lines, then event lines while they fit. */
export function smsDigestText(message: DigestMessage): string {
  return fitPieces(`Vigil: ${message.title}`, [...message.summary, ...message.lines]);
}
