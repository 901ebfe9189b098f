import * as z from 'zod';
import type { KeyPair } from '../tls-fixtures.ts';
import { json, type ProviderReceiver, parsedBody, startProviderReceiver } from './base.ts';

/**
 * A Power Automate "Workflows" trigger standing in for Microsoft Teams: `POST /workflows/<id>/
 * triggers/manual/paths/invoke?api-version=…&sp=…&sv=1.0&sig=<signature>`. A bad signature gets
 * 401 (the error names the signature given, as Logic Apps' does), a body over 28 KB 413, a message
 * that is not an Adaptive Card 400, and a valid one 202 Accepted with no body.
 */

export const TEAMS_MAX_BYTES = 28 * 1024;
const COLORS = ['Default', 'Dark', 'Light', 'Accent', 'Good', 'Warning', 'Attention'] as const;

const textBlock = z.strictObject({
  type: z.literal('TextBlock'),
  text: z.string().min(1),
  wrap: z.boolean().optional(),
  size: z.enum(['Small', 'Default', 'Medium', 'Large', 'ExtraLarge']).optional(),
  weight: z.enum(['Lighter', 'Default', 'Bolder']).optional(),
  color: z.enum(COLORS).optional(),
  isSubtle: z.boolean().optional(),
  spacing: z.enum(['None', 'Small', 'Default', 'Medium', 'Large']).optional(),
});
const factSet = z.strictObject({
  type: z.literal('FactSet'),
  facts: z.array(z.strictObject({ title: z.string(), value: z.string() })).min(1),
});
const teamsMessageSchema = z.strictObject({
  type: z.literal('message'),
  attachments: z
    .array(
      z.strictObject({
        contentType: z.literal('application/vnd.microsoft.card.adaptive'),
        contentUrl: z.null().optional(),
        content: z.strictObject({
          $schema: z.string().optional(),
          type: z.literal('AdaptiveCard'),
          version: z.enum(['1.0', '1.1', '1.2', '1.3', '1.4', '1.5']),
          body: z.array(z.union([textBlock, factSet])).min(1),
          actions: z
            .array(z.strictObject({ type: z.literal('Action.OpenUrl'), title: z.string(), url: z.url() }))
            .optional(),
          msteams: z.strictObject({ width: z.literal('Full') }).optional(),
        }),
      }),
    )
    .length(1),
});

export async function startTeamsReceiver(tls: KeyPair, workflowId: string, signature: string) {
  const path = `/workflows/${workflowId}/triggers/manual/paths/invoke`;
  const receiver = await startProviderReceiver(tls, (request) => {
    const url = new URL(request.path, 'https://localhost');
    if (request.method !== 'POST' || url.pathname !== path)
      return json(404, { error: { code: 'WorkflowNotFound', message: 'The workflow could not be found.' } });
    if (url.searchParams.get('sig') !== signature)
      return json(401, {
        error: {
          code: 'DirectApiInvalidAuthorizationSignature',
          message: `The provided authorization signature '${url.searchParams.get('sig')}' for ${request.path} is not valid.`,
        },
      });
    if (request.body.length > TEAMS_MAX_BYTES)
      return json(413, { error: { code: 'MessageSizeTooBig', message: 'Request entity too large.' } });
    if (!String(request.headers['content-type']).startsWith('application/json'))
      return json(415, {
        error: { code: 'UnsupportedMediaType', message: 'The content type is not supported.' },
      });
    const parsed = teamsMessageSchema.safeParse(parsedBody(request));
    if (!parsed.success)
      return json(400, { error: { code: 'InvalidRequestContent', message: z.prettifyError(parsed.error) } });
    return { status: 202 };
  });
  return {
    ...receiver,
    url: `${receiver.origin}${path}?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${signature}`,
  };
}

export type TeamsReceiver = ProviderReceiver & { url: string };
