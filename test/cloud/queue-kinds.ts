import { SendMessageCommand } from '@aws-sdk/client-sqs';
import * as z from 'zod';
import { jobEnvelopeSchema } from '../../lib/cloud/queues/sqs-job-queue.ts';
import type { ApiHarness, HarnessQueue, LambdaHarness } from '../support/api-harness.ts';
import type { SqsEventSource } from '../support/sqs-event-source.ts';

/**
 * Job kinds read from the product's own schemas, and what the Lambda harness's event sources did
 * with them: the rig of test/cloud/job-kinds.test.ts, whose coverage holds by construction (a kind
 * added to a schema is a kind the test expects to see run).
 */

/**
 * The `kind` values a job schema accepts, read from the schema itself: a (discriminated) union's
 * members, an object's `kind` field, a literal or an enum.
 */
export function kindsOf(schema: z.core.$ZodType): string[] {
  if (schema instanceof z.ZodUnion) return schema.options.flatMap(kindsOf);
  if (schema instanceof z.ZodObject) {
    const kind = schema.shape.kind;
    if (!kind) throw new Error('a job schema without a kind field');
    return kindsOf(kind);
  }
  if (schema instanceof z.ZodLiteral) return [...schema.values].map(String);
  if (schema instanceof z.ZodEnum) return schema.options.map(String);
  throw new Error(`no job kind in a ${schema._zod.def.type} schema`);
}

const kindOfBody = z.object({ kind: z.string() });

/** The kind of the job a queue message carries (its `{id, body}` envelope parsed). */
export function kindOfMessage(messageBody: string): string {
  return kindOfBody.parse(jobEnvelopeSchema.parse(JSON.parse(messageBody)).body).kind;
}

/** The kinds of the messages an event source handed its function and the function did not fail. */
export function handledKinds(source: SqsEventSource): Set<string> {
  const kinds = new Set<string>();
  for (const invocation of source.invocations) {
    for (const record of invocation.event.Records) {
      if (!invocation.failed.includes(record.messageId)) kinds.add(kindOfMessage(record.body));
    }
  }
  return kinds;
}

const dueBody = z.object({ due_ms: z.number() });

/**
 * Delayed jobs on fauxqs wait in real time; on the app's fake clock a test sends a due job again
 * with no delay (what the queue does when the delay ends). Each body is sent again at most once.
 */
export function dueJobRequeuer(h: LambdaHarness, now: () => number) {
  const requeued = new Set<string>();
  const send = async (queue: HarnessQueue, body: string) => {
    requeued.add(body);
    await h.sqs.sqs.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: body }));
  };
  return {
    send,
    /** Sends again every job of the notify and action queues whose `due_ms` has passed; answers how many. */
    async requeueDue(): Promise<number> {
      let sent = 0;
      for (const queue of [h.notifySqs, h.actionSqs]) {
        for (const body of queue.sentBodies()) {
          if (requeued.has(body)) continue;
          const due = dueBody.safeParse(jobEnvelopeSchema.parse(JSON.parse(body)).body);
          if (!due.success || due.data.due_ms > now()) continue;
          await send(queue, body);
          sent += 1;
        }
      }
      return sent;
    },
  };
}

/**
 * Runs the change feed and the notify jobs due by the clock until nothing moves: in the cloud the
 * requeuer sends the due jobs again; locally (no requeuer) the queue's own timers do, in one round.
 */
export async function settleNotify(
  api: Pick<ApiHarness, 'drainChanges' | 'runNotifyJobs'>,
  requeuer: ReturnType<typeof dueJobRequeuer> | undefined,
): Promise<void> {
  for (let round = 0; round < 30; round += 1) {
    await api.drainChanges();
    await api.runNotifyJobs();
    if (!requeuer || (await requeuer.requeueDue()) === 0) return;
  }
  throw new Error('the change feed and the notify queue did not settle after 30 rounds');
}
