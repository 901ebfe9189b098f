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
 *
 * Like the mapping, it keeps each shard's position as the iterator GetRecords handed back, and
 * asks for the stream's shards only when no shard it knows is still open (a closed shard read to
 * its end has no next iterator: its children, if any, are new). A read with nothing new is then one
 * GetRecords per open shard, where describing the table and the stream and asking for an iterator
 * each time took four calls and about ten times as long. Should a kept iterator fail (expired, or
 * DynamoDB Local restarted), the read starts again once from the last sequence number seen.
 */
export function createStreamReader(client: DynamoDBClient, endpoint: string, tableName: string) {
  // The table's client's own credentials and region: DynamoDB Local keeps a database per access key.
  const streams = new DynamoDBStreamsClient({
    endpoint,
    region: client.config.region,
    credentials: client.config.credentials,
  });
  const lastSequence = new Map<string, string>();
  /** The next iterator of each shard being read; undefined once a closed shard was read to its end. */
  const iterators = new Map<string, string | undefined>();
  let arn: string | undefined;

  const streamArn = async (): Promise<string> => {
    if (arn) return arn;
    const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const latest = described.Table?.LatestStreamArn;
    if (!latest) throw new Error(`table ${tableName} has no stream`);
    arn = latest;
    return latest;
  };

  /** Learns the stream's shards and starts an iterator for each one not yet known. */
  async function discoverShards(): Promise<void> {
    const streamArnNow = await streamArn();
    const described = await streams.send(new DescribeStreamCommand({ StreamArn: streamArnNow }));
    for (const shard of described.StreamDescription?.Shards ?? []) {
      const shardId = shard.ShardId;
      if (!shardId || iterators.has(shardId)) continue;
      const after = lastSequence.get(shardId);
      const iterator = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArnNow,
          ShardId: shardId,
          ShardIteratorType: after ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON',
          ...(after ? { SequenceNumber: after } : {}),
        }),
      );
      iterators.set(shardId, iterator.ShardIterator);
    }
  }

  /** Reads every open shard to its present end, in shard order. */
  async function readOpenShards(out: DynamoDBRecord[]): Promise<void> {
    for (const [shardId, start] of iterators) {
      let next = start;
      for (let page = 0; next && page < 1000; page += 1) {
        const got = await streams.send(new GetRecordsCommand({ ShardIterator: next, Limit: 1000 }));
        const records = got.Records ?? [];
        for (const record of records) {
          const seq = record.dynamodb?.SequenceNumber;
          if (seq) lastSequence.set(shardId, seq);
          out.push(record as unknown as DynamoDBRecord);
        }
        next = got.NextShardIterator;
        iterators.set(shardId, next);
        if (records.length === 0) break;
      }
    }
  }

  const anyOpen = () => [...iterators.values()].some((it) => it !== undefined);

  async function readInto(out: DynamoDBRecord[]): Promise<DynamoDBRecord[]> {
    if (!anyOpen()) await discoverShards();
    await readOpenShards(out);
    // A shard that closed during this read may have children already.
    if (!anyOpen()) {
      await discoverShards();
      await readOpenShards(out);
    }
    return out;
  }

  /** Every record written since the previous call, in shard order. */
  async function readNew(): Promise<DynamoDBRecord[]> {
    const out: DynamoDBRecord[] = [];
    try {
      return await readInto(out);
    } catch {
      // A kept iterator or stream ARN went stale: once more from the last sequence number read
      // (what this call read before the failure is kept, and not read twice).
      iterators.clear();
      arn = undefined;
      return await readInto(out);
    }
  }

  return { readNew, close: () => streams.destroy() };
}
