import { Stack } from 'aws-cdk-lib';
import { HttpApi, PayloadFormatVersion } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { VigilFunction } from './node-function.ts';

/** What the API needs from the rest of the stack. */
export interface VigilApiProps {
  readonly table: ITable;
  /** Runtime settings every function shares (table name, due index shards). */
  readonly environment: Record<string, string>;
}

/**
 * The public REST API: an HTTP API whose `$default` route sends every method and path to one
 * Lambda (functions/api.ts); the shared router inside it does the routing.
 */
export class VigilApi extends Construct {
  readonly handler: NodejsFunction;
  readonly httpApi: HttpApi;

  constructor(scope: Construct, id: string, props: VigilApiProps) {
    super(scope, id);
    this.handler = new VigilFunction(this, 'Handler', {
      entry: 'functions/api.ts',
      environment: props.environment,
    }).function;
    props.table.grantReadWriteData(this.handler);

    this.httpApi = new HttpApi(this, 'HttpApi', {
      apiName: `${Stack.of(this).stackName}-api`,
      description: 'Vigil REST API',
      defaultIntegration: new HttpLambdaIntegration('Lambda', this.handler, {
        payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
      }),
    });
  }
}
