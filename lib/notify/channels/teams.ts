import { webhookUrlChannel } from '../../providers/config-fields.ts';
import { fitLines, postToSecretUrl, utf8Bytes } from './chat-common.ts';
import { defineChannel } from './definition.ts';
import { type DigestMessage, describeDigest } from './digest-message.ts';
import { type AlertMessage, clip, messageFor, type Tone } from './message.ts';

/**
 * Microsoft Teams through a Power Automate "Workflows" webhook (the replacement of Office 365
 * connectors): the flow "Post to a channel when a webhook request is received" takes a message
 * whose attachment is an Adaptive Card. The trigger answers 202 Accepted; a message over about
 * 28 KB fails ("request entity too large"), so every payload is kept under MAX_BYTES.
 */

const MAX_BYTES = 27_000;
const MAX_TITLE = 300;
const MAX_TEXT = 2000;

/** TextBlock colours by state (Adaptive Cards' named colours, themed by Teams). */
const COLORS: Record<Tone, string> = { down: 'Attention', degraded: 'Warning', up: 'Good', other: 'Default' };

/**
 * TextBlock and FactSet text is Markdown in Teams (bold, italic, lists, `[text](url)` links):
 * backslash-escaped so an entity named "[pay here](https://…)" shows as written. Teams renders no
 * HTML in cards, and `<at>` mentions need an entity the payload never carries.
 */
function escapeTeams(text: string): string {
  return text.replace(/[\\`*_~[\]]/g, '\\$&');
}

const textBlock = (text: string, extra: Record<string, unknown> = {}) => ({
  type: 'TextBlock',
  text: escapeTeams(clip(text, MAX_TEXT)),
  wrap: true,
  ...extra,
});

function teamsMessage(body: unknown[], link: string | undefined): Record<string, unknown> {
  const content: Record<string, unknown> = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body,
    msteams: { width: 'Full' },
  };
  if (link) content.actions = [{ type: 'Action.OpenUrl', title: 'Open in Vigil', url: link }];
  return {
    type: 'message',
    attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content }],
  };
}

/** An alert as a card: the title coloured by state, the note, the facts, a button to the console. */
function teamsPayload(message: AlertMessage): Record<string, unknown> {
  const body: unknown[] = [
    textBlock(clip(message.title, MAX_TITLE), {
      size: 'Medium',
      weight: 'Bolder',
      color: COLORS[message.tone],
    }),
  ];
  if (message.note) body.push(textBlock(message.note, { isSubtle: true }));
  body.push({
    type: 'FactSet',
    facts: message.facts.map((fact) => ({ title: escapeTeams(fact.label), value: escapeTeams(fact.value) })),
  });
  return teamsMessage(body, message.link);
}

/** A digest part as a card: the title, the summary, then as many event lines as keep it under MAX_BYTES. */
function teamsDigestPayload(message: DigestMessage): Record<string, unknown> {
  const build = (lines: string[]) =>
    teamsMessage(
      [
        textBlock(clip(message.title, MAX_TITLE), {
          size: 'Medium',
          weight: 'Bolder',
          color: COLORS[message.tone],
        }),
        ...message.summary.map((line) => textBlock(line)),
        ...lines.map((line) => textBlock(line, { spacing: 'None' })),
      ],
      undefined,
    );
  return build(fitLines(message.lines, (kept) => utf8Bytes(build(kept)) <= MAX_BYTES));
}

export const teamsChannel = defineChannel({
  label: 'Microsoft Teams',
  ...webhookUrlChannel,
  send: (deps, channel, alert) =>
    postToSecretUrl(deps, channel.config.url, teamsPayload(messageFor(channel, alert, deps.publicUrl))),
  sendDigest: (deps, channel, digest) =>
    postToSecretUrl(deps, channel.config.url, teamsDigestPayload(describeDigest(digest))),
});
