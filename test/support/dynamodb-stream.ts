import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';

/**
 * Reads DynamoDB Local's stream of a table the way the Lambda event source mapping would, so
 * cloud-path tests feed real stream records to the stream handler.
 */
export function createStreamReader(client: DynamoDBClient, endpoint: string, tableName: string) {
  // The table's client's own credentials and region: DynamoDB Local keeps a database per access key.
  const streams = new DynamoDBStreamsClient({
    endpoint,
    region: client.config.region,
    credentials: client.config.credentials,
  });
  const lastSequence = new Map<string, string>();

  const streamArn = async (): Promise<string> => {
    const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const arn = described.Table?.LatestStreamArn;
    if (!arn) throw new Error(`table ${tableName} has no stream`);
    return arn;
  };

  /** Every record written since the previous call, in shard order. */
  async function readNew(): Promise<DynamoDBRecord[]> {
    const arn = await streamArn();
    const described = await streams.send(new DescribeStreamCommand({ StreamArn: arn }));
    const out: DynamoDBRecord[] = [];
    for (const shard of described.StreamDescription?.Shards ?? []) {
      const shardId = shard.ShardId;
      if (!shardId) continue;
      const after = lastSequence.get(shardId);
      const iterator = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: arn,
          ShardId: shardId,
          ShardIteratorType: after ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON',
          ...(after ? { SequenceNumber: after } : {}),
        }),
      );
      let next = iterator.ShardIterator;
      for (let page = 0; next && page < 1000; page += 1) {
        const got = await streams.send(new GetRecordsCommand({ ShardIterator: next, Limit: 1000 }));
        const records = got.Records ?? [];
        for (const record of records) {
          const seq = record.dynamodb?.SequenceNumber;
          if (seq) lastSequence.set(shardId, seq);
          out.push(record as unknown as DynamoDBRecord);
        }
        if (records.length === 0) break;
        next = got.NextShardIterator;
      }
    }
    return out;
  }

  return { readNew, close: () => streams.destroy() };
}
