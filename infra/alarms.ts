import { Duration } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { type ITable, Operation } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE } from '../lib/cloud/lambda.ts';

/** What the alarms watch. */
export interface VigilAlarmsProps {
  readonly table: ITable;
  /** Every Vigil function, by a name for the alarm (Errors and Throttles of each). */
  readonly functions: Record<string, IFunction>;
  /** Every dead-letter queue, by name: one message there is one alarm. */
  readonly deadLetterQueues: Record<string, IQueue>;
  readonly probeQueue: IQueue;
  readonly generator: IFunction;
  /** Generator invocations each minute: one per shard group (infra/capacity.ts). */
  readonly generatorInvocationsPerMinute: number;
  readonly streamFunction: IFunction;
  /** `vigil:alarmEmail`: subscribed to the topic (the address confirms by AWS's link). */
  readonly alarmEmail?: string | undefined;
}

/** A probe job older than this has waited past its slot: the worker fleet is behind. */
const PROBE_AGE_LIMIT = Duration.minutes(5);
/** The stream function's records older than this: notifications and actions are late. */
const ITERATOR_AGE_LIMIT = Duration.minutes(2);

/**
 * What an operator is woken for: an SNS topic (subscribe to it; `-c vigil:alarmEmail=` adds an
 * email subscription) receiving every alarm and its recovery, and a dashboard of the same metrics.
 * Alarms: a message in any DLQ; probe jobs waiting (the queue's oldest message, the worker's
 * QueueLag); the stream's iterator age; each function's errors and throttles; a generator minute
 * missed; DynamoDB throttling.
 */
export class VigilAlarms extends Construct {
  readonly topic: Topic;
  readonly dashboard: Dashboard;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: VigilAlarmsProps) {
    super(scope, id);
    this.topic = new Topic(this, 'Topic', { displayName: 'Vigil alarms', enforceSSL: true });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    const action = new SnsAction(this.topic);
    const alarm = (
      alarmId: string,
      metric: IMetric,
      options: Partial<AlarmOptions> & { description: string },
    ) => {
      const created = new Alarm(this, alarmId, {
        metric,
        threshold: options.threshold ?? 0,
        evaluationPeriods: options.evaluationPeriods ?? 1,
        ...(options.datapointsToAlarm ? { datapointsToAlarm: options.datapointsToAlarm } : {}),
        comparisonOperator: options.comparisonOperator ?? ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: options.treatMissingData ?? TreatMissingData.NOT_BREACHING,
        alarmDescription: options.description,
      });
      created.addAlarmAction(action);
      created.addOkAction(action);
      this.alarms.push(created);
      return created;
    };
    const minute = Duration.minutes(1);
    const fiveMinutes = Duration.minutes(5);

    for (const [name, queue] of Object.entries(props.deadLetterQueues))
      alarm(
        `${name}DlqDepth`,
        queue.metricApproximateNumberOfMessagesVisible({ period: minute, statistic: 'Maximum' }),
        {
          description: `Vigil: messages in the ${name} DLQ (jobs that failed every attempt; \`vigil dlq\` inspects and redrives them)`,
        },
      );

    const probeAge = props.probeQueue.metricApproximateAgeOfOldestMessage({
      period: minute,
      statistic: 'Maximum',
    });
    alarm('ProbeQueueAge', probeAge, {
      threshold: PROBE_AGE_LIMIT.toSeconds(),
      evaluationPeriods: 3,
      description: `Vigil: a probe job has waited over ${PROBE_AGE_LIMIT.toMinutes()} minutes (the workers are behind)`,
    });
    const queueLag = new Metric({
      namespace: METRICS_NAMESPACE,
      metricName: 'QueueLag',
      dimensionsMap: { service: 'worker' },
      period: minute,
      statistic: 'Maximum',
    });
    alarm('ProbeQueueLag', queueLag, {
      threshold: PROBE_AGE_LIMIT.toMilliseconds(),
      evaluationPeriods: 3,
      description: `Vigil: the worker took probe jobs over ${PROBE_AGE_LIMIT.toMinutes()} minutes after they were sent`,
    });

    const iteratorAge = props.streamFunction.metric('IteratorAge', { period: minute, statistic: 'Maximum' });
    alarm('StreamIteratorAge', iteratorAge, {
      threshold: ITERATOR_AGE_LIMIT.toMilliseconds(),
      evaluationPeriods: 3,
      description: `Vigil: the stream function is over ${ITERATOR_AGE_LIMIT.toMinutes()} minutes behind the table (alerts and actions late)`,
    });

    for (const [name, fn] of Object.entries(props.functions)) {
      alarm(`${name}Errors`, fn.metricErrors({ period: fiveMinutes, statistic: 'Sum' }), {
        description: `Vigil: the ${name} function failed (see its log group)`,
      });
      alarm(`${name}Throttles`, fn.metricThrottles({ period: fiveMinutes, statistic: 'Sum' }), {
        description: `Vigil: the ${name} function was throttled (its reserved concurrency is full)`,
      });
    }

    // One invocation per shard group each minute; a minute fewer, or no data at all, is a missed
    // minute. Two of three minutes: an invocation landing on a minute's edge counts in the next one.
    const invocations = props.generator.metricInvocations({ period: minute, statistic: 'Sum' });
    alarm('GeneratorMissedMinute', invocations, {
      threshold: props.generatorInvocationsPerMinute,
      comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      treatMissingData: TreatMissingData.BREACHING,
      description: 'Vigil: the check generator missed a minute (checks are not being scheduled)',
    });

    const throttleEvents = new MathExpression({
      label: 'DynamoDB throttle events',
      expression: 'FILL(r, 0) + FILL(w, 0)',
      usingMetrics: {
        r: props.table.metric('ReadThrottleEvents', { statistic: 'Sum' }),
        w: props.table.metric('WriteThrottleEvents', { statistic: 'Sum' }),
      },
      period: fiveMinutes,
    });
    alarm('TableThrottleEvents', throttleEvents, {
      description:
        'Vigil: DynamoDB throttled reads or writes of the table (on-demand limits, a hot partition)',
    });
    // The operations the store calls (at most 10 metrics in an alarm's expression).
    const throttledRequests = props.table.metricThrottledRequestsForOperations({
      period: fiveMinutes,
      operations: [
        Operation.GET_ITEM,
        Operation.BATCH_GET_ITEM,
        Operation.QUERY,
        Operation.PUT_ITEM,
        Operation.UPDATE_ITEM,
        Operation.DELETE_ITEM,
        Operation.TRANSACT_WRITE_ITEMS,
      ],
    });
    alarm('TableThrottledRequests', throttledRequests, {
      description: 'Vigil: DynamoDB refused requests of the table for throttling',
    });

    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(3) });
    const fns = Object.entries(props.functions);
    this.dashboard.addWidgets(
      new TextWidget({
        markdown: '# Vigil\nEvery widget has an alarm on the SNS topic `Vigil alarms`.',
        width: 24,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'DLQ depth',
        left: Object.values(props.deadLetterQueues).map((q) =>
          q.metricApproximateNumberOfMessagesVisible({ period: minute }),
        ),
      }),
      new GraphWidget({ title: 'Probe queue: oldest message (s)', left: [probeAge] }),
      new GraphWidget({ title: 'Worker QueueLag (ms)', left: [queueLag] }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({ title: 'Stream IteratorAge (ms)', left: [iteratorAge] }),
      new GraphWidget({ title: 'Generator invocations', left: [invocations] }),
      new GraphWidget({ title: 'DynamoDB throttling', left: [throttleEvents, throttledRequests] }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Errors',
        left: fns.map(([, fn]) => fn.metricErrors({ period: fiveMinutes })),
      }),
      new GraphWidget({
        title: 'Throttles',
        left: fns.map(([, fn]) => fn.metricThrottles({ period: fiveMinutes })),
      }),
      new GraphWidget({
        title: 'Concurrent executions',
        left: fns.map(([, fn]) =>
          fn.metric('ConcurrentExecutions', { statistic: 'Maximum', period: minute }),
        ),
      }),
    );
  }
}

interface AlarmOptions {
  threshold: number;
  evaluationPeriods: number;
  datapointsToAlarm: number;
  comparisonOperator: ComparisonOperator;
  treatMissingData: TreatMissingData;
}
