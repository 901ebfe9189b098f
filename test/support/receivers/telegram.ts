import {
  bodyFields,
  type ProviderReply,
  type ProviderRequest,
  type ProviderServer,
  startProviderServer,
} from './provider-host.ts';

/**
 * The Telegram Bot API's sendMessage as documented (https://core.telegram.org/bots/api#sendmessage
 * and #markdownv2-style): `POST /bot<token>/sendMessage` with `{chat_id, text, parse_mode}`;
 * MarkdownV2 parsed strictly (a reserved character outside an entity must be escaped, entities
 * must close), the text at most 4,096 characters after parsing; answers `{ok:true, result}` or
 * `{ok:false, error_code, description}`: 401 for an unknown token, 400 "can't parse entities",
 * "message is too long" and "chat not found", 403 for a chat that blocked the bot ("@blocked"),
 * 429 with parameters.retry_after ("@flood"). The chat "@echo" answers an error quoting the
 * request's path (token included): Telegram does not, but a sender must survive one that does.
 */

export interface TelegramEntity {
  type: 'bold' | 'italic' | 'underline' | 'strikethrough' | 'spoiler' | 'code' | 'text_link';
  text: string;
  url?: string;
}

/** A message the receiver accepted, as a chat would show it. */
interface TelegramMessage {
  chat_id: string;
  /** The text after parsing: what the user reads. */
  text: string;
  entities: TelegramEntity[];
  body: Record<string, unknown>;
}

const RESERVED = new Set('_*[]()~`>#+-=|{}.!');

/** MarkdownV2 as Telegram parses it, or the error it answers. */
export function parseMarkdownV2(
  src: string,
): { text: string; entities: TelegramEntity[] } | { error: string } {
  let text = '';
  const entities: TelegramEntity[] = [];
  const open: { type: TelegramEntity['type']; start: number }[] = [];
  const toggle = (type: TelegramEntity['type']) => {
    const top = open[open.length - 1];
    if (top?.type === type) {
      open.pop();
      entities.push({ type, text: text.slice(top.start) });
    } else open.push({ type, start: text.length });
  };
  const reserved = (c: string) => ({
    error: `Bad Request: can't parse entities: Character '${c}' is reserved and must be escaped with the preceding '\\'`,
  });
  for (let i = 0; i < src.length; i++) {
    const c = src[i] as string;
    if (c === '\\') {
      const next = src[i + 1];
      if (next === undefined || next.charCodeAt(0) > 126) return reserved('\\');
      text += next;
      i++;
    } else if (c === '*') toggle('bold');
    else if (c === '_' && src[i + 1] === '_') {
      toggle('underline');
      i++;
    } else if (c === '_') toggle('italic');
    else if (c === '~') toggle('strikethrough');
    else if (c === '|' && src[i + 1] === '|') {
      toggle('spoiler');
      i++;
    } else if (c === '`') {
      const end = src.indexOf('`', i + 1);
      if (end < 0) return { error: "Bad Request: can't parse entities: Can't find end of Code entity" };
      const code = src.slice(i + 1, end).replace(/\\([`\\])/g, '$1');
      entities.push({ type: 'code', text: code });
      text += code;
      i = end;
    } else if (c === '[') open.push({ type: 'text_link', start: text.length });
    else if (c === ']' && open[open.length - 1]?.type === 'text_link' && src[i + 1] === '(') {
      const top = open.pop() as { start: number };
      let url = '';
      let j = i + 2;
      for (; j < src.length && src[j] !== ')'; j++) {
        if (src[j] === '\\') j++;
        url += src[j] ?? '';
      }
      if (j >= src.length) return { error: "Bad Request: can't parse entities: Can't find end of a URL" };
      entities.push({ type: 'text_link', text: text.slice(top.start), url });
      i = j;
    } else if (RESERVED.has(c)) return reserved(c);
    else text += c;
  }
  if (open.length > 0) {
    const kind = open[open.length - 1]?.type ?? '';
    return { error: `Bad Request: can't parse entities: Can't find end of ${kind} entity` };
  }
  return { text, entities };
}

export interface TelegramReceiver extends ProviderServer {
  messages: TelegramMessage[];
  /** Every request, accepted or not (paths included, for the tests that check what was sent). */
  requests: ProviderRequest[];
}

const fail = (status: number, description: string, extra: Record<string, unknown> = {}): ProviderReply => ({
  status,
  json: { ok: false, error_code: status, description, ...extra },
});

/** Starts the receiver for the bot `token`. */
export async function startTelegramReceiver(token: string): Promise<TelegramReceiver> {
  const messages: TelegramMessage[] = [];
  const requests: ProviderRequest[] = [];
  const server = await startProviderServer((req) => {
    requests.push(req);
    const match = /^\/bot([^/]+)\/sendMessage$/.exec(req.path);
    if (!match || req.method !== 'POST') return fail(404, 'Not Found');
    if (match[1] !== token) return fail(401, 'Unauthorized');
    const body = bodyFields(req);
    const chatId = body?.chat_id;
    if (!body || (typeof chatId !== 'string' && typeof chatId !== 'number'))
      return fail(400, 'Bad Request: chat_id is empty');
    if (typeof body.text !== 'string' || body.text === '')
      return fail(400, 'Bad Request: message text is empty');
    if (body.parse_mode !== 'MarkdownV2')
      return fail(400, 'Bad Request: unsupported parse_mode in this receiver');
    const chat = String(chatId);
    if (chat === '@blocked') return fail(403, 'Forbidden: bot was blocked by the user');
    if (chat === '@flood')
      return fail(429, 'Too Many Requests: retry after 7', { parameters: { retry_after: 7 } });
    if (chat === '@echo') return fail(400, `Bad Request: chat not found at ${req.path}`);
    if (!/^(-?\d+|@[A-Za-z]\w{3,31})$/.test(chat)) return fail(400, 'Bad Request: chat not found');
    const parsed = parseMarkdownV2(body.text);
    if ('error' in parsed) return fail(400, parsed.error);
    if (parsed.text.length > 4096) return fail(400, 'Bad Request: message is too long');
    messages.push({ chat_id: chat, text: parsed.text, entities: parsed.entities, body });
    return {
      status: 200,
      json: {
        ok: true,
        result: { message_id: messages.length, chat: { id: chat }, date: 1, text: parsed.text },
      },
    };
  });
  return { ...server, messages, requests };
}
