import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';

/** The secondary indexes of the single-table design; names match `IndexName` in lib/store/table.ts. */
const indexes = ['gsi1', 'gsi2'] as const;

/**
 * The one DynamoDB table of the cloud runtime. Keys, indexes, stream and TTL mirror
 * `createTableDefinition` in lib/store/dynamodb-table.ts (the definition DynamoDB Local tests use).
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
      // The table holds every tenant's data: deleting the stack must never delete it.
      removalPolicy: RemovalPolicy.RETAIN,
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
