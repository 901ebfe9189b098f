import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { VigilApi } from './api.ts';
import { VigilTable } from './table.ts';

/**
 * The whole cloud runtime in one stack. Each concern is its own construct (table, API, and
 * later queues, workers, schedules); this class only wires them together.
 */
export class VigilStack extends Stack {
  readonly table: VigilTable;
  readonly api: VigilApi;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    this.table = new VigilTable(this, 'Store');
    this.api = new VigilApi(this, 'Api', { table: this.table.table });

    new CfnOutput(this, 'ApiUrl', { value: this.api.httpApi.apiEndpoint, description: 'Vigil API base URL' });
  }
}
