import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineFeature, hostQueue, jobsOf, queueSchema } from '../../lib/platform/feature.ts';
import type { ReceivedJob } from '../../lib/platform/job-queue.ts';

const ping = z.object({ kind: z.literal('ping'), n: z.number() });
const pong = z.object({ kind: z.literal('pong') });
const received = <B>(body: B): ReceivedJob<B> => ({ id: 'j1', body, attempt: 1, receipt: 'r1' });

describe('defineFeature and the queue it builds', () => {
  it('reads each job’s kind from its schema, and refuses a job declared under another kind', () => {
    expect(jobsOf('notify', [ping, pong]).map((job) => job.kind)).toEqual(['ping', 'pong']);
    expect(() =>
      defineFeature({ name: 'a', jobs: [{ queue: 'notify', kind: 'pong', schema: ping }] }),
    ).toThrow('a: job pong has a schema of kind ping');
    expect(() => jobsOf('notify', [z.object({ kind: z.string() })])).toThrow('no literal kind');
  });

  it('parses the union of the features’ kinds, and refuses a kind two features declare', () => {
    const a = defineFeature({ name: 'a', jobs: jobsOf('notify', [ping]) });
    const b = defineFeature({ name: 'b', jobs: jobsOf('notify', [pong]) });
    const schema = queueSchema([a, b], 'notify');
    expect(schema.parse({ kind: 'pong' })).toEqual({ kind: 'pong' });
    expect(schema.safeParse({ kind: 'ping' }).success).toBe(false);
    expect(() =>
      queueSchema([a, defineFeature({ name: 'c', jobs: jobsOf('notify', [ping]) })], 'notify'),
    ).toThrow('notify job ping is declared by a and c');
  });

  it('hands each job to the host of the feature declaring its kind, and refuses a kind with no host', async () => {
    const a = defineFeature({ name: 'a', jobs: jobsOf('notify', [ping]) });
    const b = defineFeature({ name: 'b', jobs: jobsOf('notify', [pong]) });
    const seen: string[] = [];
    const host = (feature: typeof a | typeof b) => ({
      feature,
      queue: 'notify' as const,
      handler: (ports: { tag: string }) => async (job: ReceivedJob<{ kind: string }>) => {
        seen.push(`${ports.tag}:${feature.name}:${job.body.kind}`);
      },
    });
    const handle = hostQueue([a, b], 'notify', [host(a), host(b)], { tag: 't' });
    await handle(received({ kind: 'pong' }));
    await handle(received({ kind: 'ping', n: 1 }));
    expect(seen).toEqual(['t:b:pong', 't:a:ping']);
    await expect(handle(received({ kind: 'other' }))).rejects.toThrow(
      'no feature declares a notify job of kind other',
    );
    expect(() => hostQueue([a, b], 'notify', [host(a)], { tag: 't' })).toThrow(
      'no host for the notify job kinds pong',
    );
  });
});
