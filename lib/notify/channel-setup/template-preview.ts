import * as z from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { type AuthedRoute, ok } from '../../http/types.ts';
import { messageFor, plainText } from '../channels/message.ts';
import { messageTemplateSchema } from '../channels/template.ts';
import { SAMPLE_KINDS, SAMPLE_STATES, sampleAlert } from '../channels/template-sample.ts';
import { TEMPLATE_CHANNEL_TYPES, templateRefusal } from '../channels/template-types.ts';

/**
 * POST /v1/notify/template-preview (docs/notifications.md "Message templates"): a message template
 * rendered with a made-up event (entity "Checkout API", template-sample.ts) as the console shows it
 * while the template is typed. Writes nothing and reads nothing of the tenant (readsOnly).
 */

/** The sample's time: fixed, so a preview reads the same each time. */
const SAMPLE_TIME = '2026-01-01T12:00:00.000Z';

const templatePreviewBody = z.strictObject({
  channel_type: z
    .enum(TEMPLATE_CHANNEL_TYPES, { error: (issue) => templateRefusal(String(issue.input)) })
    .meta({
      description: 'A channel type that takes a template (not webhook or nats: they send the event as JSON)',
    }),
  template: messageTemplateSchema,
  kind: z
    .enum(SAMPLE_KINDS)
    .optional()
    .meta({ description: 'The kind of message to preview; alert by default' }),
  to_state: z
    .enum(SAMPLE_STATES)
    .optional()
    .meta({ description: 'The state the sample entity changes to; down by default (up for a recovery)' }),
});

const templatePreviewResponse = z.strictObject({
  title: z
    .string()
    .meta({ description: 'The rendered title (the default title when the template has none)' }),
  body: z.string().meta({
    description:
      'The rendered body as plain lines (the default lines when the template has none); each channel adds its own markup',
  }),
  link: z
    .string()
    .nullable()
    .meta({ description: 'The console link the message carries; null without VIGIL_PUBLIC_URL' }),
});

/** The title, body and link a channel would send for the sample event with this template. */
function previewTemplate(
  input: z.output<typeof templatePreviewBody>,
  publicUrl: string | undefined,
): z.output<typeof templatePreviewResponse> {
  const alert = sampleAlert({ kind: input.kind, to_state: input.to_state, timestamp: SAMPLE_TIME });
  const message = messageFor({ template: input.template }, alert, publicUrl);
  return {
    title: message.title,
    body: plainText({ ...message, link: undefined }, false),
    link: message.link ?? null,
  };
}

/** The preview route; VIGIL_PUBLIC_URL makes the sample's link. */
export function templatePreviewRoutes(deps: { publicUrl: string | undefined }): AuthedRoute[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/notify/template-preview',
      auth: 'key',
      readsOnly: true,
      operationId: 'previewMessageTemplate',
      tag: 'Notifications',
      summary:
        'A channel’s message template rendered with a made-up event (entity “Checkout API”), without sending or writing anything',
      schemas: { body: templatePreviewBody, responses: { 200: templatePreviewResponse } },
      handler: async ({ body }) => ok(previewTemplate(body, deps.publicUrl)),
    }),
  ];
}
