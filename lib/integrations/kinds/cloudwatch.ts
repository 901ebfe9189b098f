import * as z from 'zod';
import { parseInput } from '../../http/requests.ts';
import { UnauthorizedError, ValidationError } from '../../platform/errors.ts';
import type { IntegrationKindDefinition, ReadContext } from './definition.ts';
import {
  boundedAlert,
  boundedLabels,
  boundedLinks,
  type IncomingAlert,
  senderTime,
  severityOf,
} from './incoming.ts';
import {
  certificateUrlProblem,
  signatureHolds,
  snsEnvelopeSchema,
  snsUrlProblem,
  topicRegion,
} from './sns-signature.ts';

/**
 * CloudWatch alarms through an SNS topic's HTTPS subscription. Every message's signature is
 * verified (sns-signature.ts) before anything in it is read, the SubscriptionConfirmation's
 * included; once a topic is confirmed, messages of another topic are refused. An alarm is one
 * alert per alarm ARN: ALARM triggers (critical, or the `severity_map`'s word for `ALARM`), OK
 * resolves, INSUFFICIENT_DATA keeps the alert open as `info` (the alarm cannot judge: recorded, no
 * state; `severity_map: {"INSUFFICIENT_DATA": "warning"}` makes it count).
 */

const alarmSchema = z.object({
  AlarmName: z.string().min(1),
  AlarmDescription: z.string().nullable().optional(),
  AWSAccountId: z.string().optional(),
  NewStateValue: z.enum(['ALARM', 'OK', 'INSUFFICIENT_DATA']),
  NewStateReason: z.string().optional(),
  StateChangeTime: z.string().optional(),
  Region: z.string().optional(),
  AlarmArn: z.string().min(1),
  Trigger: z
    .object({
      MetricName: z.string().optional(),
      Namespace: z.string().optional(),
      Dimensions: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
    })
    .optional(),
});

function alarmAlert(message: string, context: ReadContext, region: string): IncomingAlert {
  let json: unknown;
  try {
    json = JSON.parse(message);
  } catch {
    throw ValidationError.field('Message', 'The SNS message is not a CloudWatch alarm (not JSON).');
  }
  const alarm = parseInput(alarmSchema, json, 'Message');
  const state = alarm.NewStateValue;
  const dimensions = Object.fromEntries((alarm.Trigger?.Dimensions ?? []).map((d) => [d.name, d.value]));
  return boundedAlert({
    dedup_key: alarm.AlarmArn,
    action: state === 'OK' ? 'resolve' : 'trigger',
    severity:
      state === 'OK'
        ? undefined
        : severityOf(state, context.severityMap, state === 'ALARM' ? 'critical' : 'info'),
    summary: alarm.NewStateReason ? `${alarm.AlarmName}: ${alarm.NewStateReason}` : alarm.AlarmName,
    source: alarm.Trigger?.Namespace,
    labels: boundedLabels({
      alarm_name: alarm.AlarmName,
      state,
      region: alarm.Region,
      account: alarm.AWSAccountId,
      namespace: alarm.Trigger?.Namespace,
      metric: alarm.Trigger?.MetricName,
      ...dimensions,
    }),
    links: boundedLinks([
      {
        href: `https://console.aws.amazon.com/cloudwatch/home?region=${encodeURIComponent(region)}#alarmsV2:alarm/${encodeURIComponent(alarm.AlarmName)}`,
        text: 'CloudWatch alarm',
      },
    ]),
    at: senderTime(alarm.StateChangeTime),
  });
}

export const cloudwatchKind: IntegrationKindDefinition = {
  kind: 'cloudwatch',
  async read(body, context) {
    const envelope = parseInput(snsEnvelopeSchema, body);
    const region = topicRegion(envelope.TopicArn);
    const problem = certificateUrlProblem(envelope.SigningCertURL, region);
    if (problem) throw new UnauthorizedError(`the SNS signature cannot be verified: ${problem}`);
    if (context.snsTopicArn !== undefined && envelope.TopicArn !== context.snsTopicArn)
      throw new UnauthorizedError(
        'the message is from another SNS topic than the one this integration confirmed',
      );
    const certificate = await context.fetchCertificate(envelope.SigningCertURL);
    if (!signatureHolds(envelope, certificate, context.now))
      throw new UnauthorizedError('the SNS signature does not verify');
    switch (envelope.Type) {
      case 'SubscriptionConfirmation': {
        const url = envelope.SubscribeURL ?? '';
        const urlProblem = snsUrlProblem(url, region, 'SubscribeURL');
        if (urlProblem) throw ValidationError.field('SubscribeURL', `${urlProblem}.`);
        return { kind: 'subscription', topicArn: envelope.TopicArn, confirmUrl: url };
      }
      case 'UnsubscribeConfirmation':
        return { kind: 'nothing', why: 'the SNS subscription was removed' };
      default:
        return { kind: 'alerts', alerts: [alarmAlert(envelope.Message, context, region)] };
    }
  },
};
