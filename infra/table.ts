import { RemovalPolicy } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  type ITable,
  ProjectionType,
  StreamViewType,
  Table,
} from 'aws-cdk-lib/aws-dynamodb';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';

/** The secondary indexes of the single-table design; names match `IndexName` in lib/store/table.ts. */
const indexes = ['gsi1', 'gsi2'] as const;

/**
 * The DynamoDB actions the store calls (lib/dynamodb/dynamodb-table.ts: GetItem, BatchGetItem, Query,
 * PutItem, UpdateItem, DeleteItem and TransactWriteItems, which needs the action of each item it
 * holds, ConditionCheckItem included). Never BatchWriteItem (an unconditional write or delete of 25
 * items), Scan or the stream's reads: a function gets a subset of these, never grantReadWriteData.
 */
export const TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
] as const;
export type TableAction = (typeof TABLE_ACTIONS)[number];

/**
 * The generator's: it queries the due index and the shards' cells, reads a shard's lease and moves
 * it, and claims due checks and scheduled actions with conditional updates (lib/cloud/workers/generator.ts).
 */
export const GENERATOR_TABLE_ACTIONS: readonly TableAction[] = [
  'dynamodb:GetItem',
  'dynamodb:Query',
  'dynamodb:UpdateItem',
];

/**
 * The one DynamoDB table of the cloud runtime. Keys, indexes, stream and TTL mirror
 * `createTableDefinition` in lib/dynamodb/dynamodb-table.ts (the definition DynamoDB Local tests use).
 */
export class VigilTable extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      // The change feed (transitions -> notifications and actions) reads both images.
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
      timeToLiveAttribute: 'ttl',
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // The table holds every tenant's data: deleting the stack must never delete it, and nobody
      // deletes it by hand without first turning the protection off.
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
    });
    for (const name of indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: name,
        partitionKey: { name: `${name}pk`, type: AttributeType.STRING },
        sortKey: { name: `${name}sk`, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    }
  }
}

/**
 * Lets `fn` call `actions` on the table, and Query on its two indexes by name (never `index/*`).
 * Default: every action the store calls.
 */
export function grantTable(
  table: ITable,
  fn: IGrantable,
  actions: readonly TableAction[] = TABLE_ACTIONS,
): void {
  fn.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({ actions: [...actions], resources: [table.tableArn] }),
  );
  if (actions.includes('dynamodb:Query'))
    fn.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: indexes.map((name) => `${table.tableArn}/index/${name}`),
      }),
    );
}
