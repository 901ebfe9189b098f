import { startDynamoDbLocal } from '../test/support/dynamodb-local.ts';
import { runStormCloud, type StormCloudRun } from '../test/support/storm-cloud-run.ts';
import { table } from './markdown.ts';
import { round } from './stats.ts';

/**
 * `--only storm-cloud`: issue 35's storm through the cloud handlers (test/support/storm-cloud-run.ts)
 * over a DynamoDB Local of its own: the seconds until every entity's alert reached the receiver,
 * and the write units per second on the hottest partition keys (the cost meter).
 */

export async function runStormCloudBench(options: {
  entities: number;
  onProgress: (line: string) => void;
}): Promise<StormCloudRun> {
  const local = await startDynamoDbLocal();
  try {
    return await runStormCloud({ endpoint: local.endpoint, ...options });
  } finally {
    await local.stop();
  }
}

/** Partition keys with their ids shown as placeholders. */
const keyName = (pk: string) => pk.replace(/(tnt|cel|chk|ent)_[0-9A-Z]{26}/g, '<$1>');

/** The storm table (Markdown). */
export function formatStormCloud(r: StormCloudRun): string {
  const sqs = Object.entries(r.sqsRequests)
    .map(([op, n]) => `${op} ${n}`)
    .join(', ');
  return [
    `Storm in the cloud: ${r.entities} entities of one tenant down at once, through the cloud handlers over DynamoDB Local:\n`,
    table(
      ['figure', 'value'],
      [
        ["seconds until every entity's alert reached the receiver", String(round(r.alertSeconds, 1))],
        ['entities alerted / webhooks received', `${r.entitiesAlerted} / ${r.webhooks}`],
        ['stream records (kept by the filter)', String(r.streamRecords)],
        ['SQS requests', sqs],
        ...['TRN#', 'INC#'].map((prefix) => {
          const k = r.hottestKeys.find((key) => key.pk.startsWith(prefix));
          return [
            `hottest ${prefix}… key: WCU in its busiest second`,
            k ? `${keyName(k.pk)}: ${round(k.wcu, 1)}` : '-',
          ];
        }),
        ...r.hottestKeys
          .slice(0, 6)
          .map((k, i) => [
            `hottest key ${i + 1}: WCU in its busiest second`,
            `${keyName(k.pk)}: ${round(k.wcu, 1)}`,
          ]),
        ['setup and warm-up seconds', String(round(r.setupSeconds, 0))],
      ],
    ),
  ].join('\n');
}
