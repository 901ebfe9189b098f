import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { STREAM_ENTITIES } from '../lib/events/consumers.ts';
import type { StreamedEntity } from '../lib/store/change-feed.ts';
import { VigilFunction } from './node-function.ts';
import { deadLetterQueue } from './queues.ts';
import { grantTable } from './table.ts';

export interface VigilChangeFeedProps {
  readonly table: ITable;
  readonly environment: Record<string, string>;
  /** Reserved concurrency: the stream's shards in flight at once, held for it (infra/capacity.ts). */
  readonly concurrency: number;
}

/**
 * Stream filters: a record passes when its new or its old image is one of the item types the
 * consumers read (STREAM_ENTITIES, the same list the local outbox keeps), so results never
 * invoke the function. A type fed only when its change entry moves (the incident, for its
 * acknowledgement) passes only as its one consumer reads it: open before, acknowledged after.
 * Filters in one list are OR-ed.
 */
function streamFilters(entities: readonly StreamedEntity[]) {
  const whole = entities.filter((e) => typeof e === 'string');
  const rule = { entity: { S: FilterRule.or(...whole) } };
  const moved = entities.flatMap((e) => (typeof e === 'string' ? [] : [e.entity]));
  return [
    FilterCriteria.filter({ dynamodb: { NewImage: rule } }),
    FilterCriteria.filter({ dynamodb: { OldImage: rule } }),
    ...moved.map((entity) =>
      FilterCriteria.filter({
        dynamodb: {
          NewImage: {
            entity: { S: FilterRule.isEqual(entity) },
            state: { S: FilterRule.isEqual('acknowledged') },
          },
          OldImage: { state: { S: FilterRule.isEqual('open') } },
        },
      }),
    ),
  ];
}

/** DynamoDB Streams -> the stream Lambda (functions/stream.ts) -> the change-feed consumers. */
export class VigilChangeFeed extends Construct {
  readonly handler: NodejsFunction;
  /** Receives the metadata (shard, sequence range) of batches that failed every retry. */
  readonly dlq: Queue;

  constructor(scope: Construct, id: string, props: VigilChangeFeedProps) {
    super(scope, id);
    this.dlq = deadLetterQueue(this, 'Dlq');
    this.handler = new VigilFunction(this, 'Handler', {
      entry: 'functions/stream.ts',
      timeout: Duration.seconds(60),
      reservedConcurrency: props.concurrency,
      environment: props.environment,
    }).function;
    grantTable(props.table, this.handler);
    this.handler.addEventSource(
      new DynamoEventSource(props.table, {
        // Consumers are idempotent; starting at the oldest record loses nothing when the mapping
        // is (re)created, where LATEST would drop whatever was written in between.
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(1),
        bisectBatchOnError: true,
        // The handler reports the records a consumer failed (Powertools batch processing): retries resume there.
        reportBatchItemFailures: true,
        // A store outage fails every consumer's batch: retry it until the record is an hour old (the
        // attempts are Lambda's maximum, so the age decides), which outlasts the 15 minutes the notify
        // and action paths must survive; a record that still fails then goes to the DLQ's metadata.
        retryAttempts: 10_000,
        maxRecordAge: Duration.hours(1),
        onFailure: new SqsDlq(this.dlq),
        filters: streamFilters(STREAM_ENTITIES),
      }),
    );
  }
}
