import { webhookUrlChannel } from '../../providers/config-fields.ts';
import { escapeHtml } from '../../providers/email-message.ts';
import { fitLines, postToSecretUrl, secretPartsOf, sendJson, utf8Bytes } from './chat-common.ts';
import { defineChannel } from './definition.ts';
import { type DigestMessage, describeDigest } from './digest-message.ts';
import { type AlertMessage, clip, messageFor } from './message.ts';

/**
 * Google Chat through a space's incoming webhook (`https://chat.googleapis.com/v1/spaces/…/messages
 * ?key=…&token=…`, the key and token being the secret): a `text` line for notifications plus one
 * cardsV2 card. A message holds at most 32,000 bytes (text and cards), so every payload is kept
 * under MAX_BYTES. An entity's alerts reply in one thread (threadKey = the entity).
 */

const MAX_BYTES = 30_000;
const MAX_TEXT = 4000;
const MAX_TITLE = 200;
const MAX_WIDGET_TEXT = 2000;

/** Card text is a small HTML subset (`<b>`, `<a href>`, `<font color>`): escaped as HTML. */
const html = (text: string, max = MAX_WIDGET_TEXT) => escapeHtml(clip(text, max));

/**
 * The `text` field uses Chat's own markup, where `<users/all>` mentions everyone and
 * `<https://…|label>` is a link: angle brackets become look-alikes, so no name can do either.
 */
function escapeChatText(text: string): string {
  return text.replace(/</g, '‹').replace(/>/g, '›');
}

function message(text: string, cardId: string, card: Record<string, unknown>) {
  return { text: escapeChatText(clip(text, MAX_TEXT)), cardsV2: [{ cardId, card }] };
}

/** An alert: the title as the text and the card's header, the note, a line per fact, a button to the console. */
function googleChatPayload(alert: AlertMessage): Record<string, unknown> {
  const widgets: unknown[] = [];
  if (alert.note) widgets.push({ textParagraph: { text: html(alert.note) } });
  for (const fact of alert.facts) {
    widgets.push({
      decoratedText: { topLabel: html(fact.label, 100), text: html(fact.value), wrapText: true },
    });
  }
  if (alert.link) {
    widgets.push({
      buttonList: { buttons: [{ text: 'Open in Vigil', onClick: { openLink: { url: alert.link } } }] },
    });
  }
  const header = { title: html(alert.title, MAX_TITLE), subtitle: 'Vigil' };
  return message(alert.title, 'vigil-alert', { header, sections: [{ widgets }] });
}

/** A digest part: the summary, then as many event lines as keep the message under MAX_BYTES. */
function googleChatDigestPayload(digest: DigestMessage): Record<string, unknown> {
  const build = (lines: string[]) =>
    message(digest.title, 'vigil-digest', {
      header: { title: html(digest.title, MAX_TITLE), subtitle: 'Vigil digest' },
      sections: [
        { widgets: [{ textParagraph: { text: digest.summary.map((line) => html(line)).join('<br>') } }] },
        { widgets: [{ textParagraph: { text: lines.map((line) => html(line)).join('<br>') } }] },
      ],
    });
  return build(fitLines(digest.lines, (kept) => utf8Bytes(build(kept)) <= MAX_BYTES));
}

/** The webhook URL with the entity's thread: replies to it, or starts it (the documented fallback). */
function threadedUrl(url: string, threadKey: string): string {
  if (!threadKey) return url;
  const threaded = new URL(url);
  threaded.searchParams.set('threadKey', threadKey);
  threaded.searchParams.set('messageReplyOption', 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD');
  return threaded.toString();
}

export const googleChatChannel = defineChannel({
  label: 'Google Chat',
  ...webhookUrlChannel,
  send: (deps, channel, alert) =>
    sendJson(
      deps.http,
      {
        url: threadedUrl(channel.config.url, alert.entity.id),
        body: googleChatPayload(messageFor(channel, alert, deps.publicUrl)),
      },
      secretPartsOf(channel.config.url),
    ),
  sendDigest: (deps, channel, digest) =>
    postToSecretUrl(deps, channel.config.url, googleChatDigestPayload(describeDigest(digest))),
});
