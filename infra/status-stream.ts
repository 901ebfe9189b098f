import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type FunctionUrl, FunctionUrlAuthType, HttpMethod, InvokeMode } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { STATUS_STREAM_FUNCTION_MS } from '../lib/status/stream-service.ts';
import { VigilFunction } from './node-function.ts';

export interface VigilStatusStreamProps {
  readonly table: ITable;
  readonly environment: Record<string, string>;
}

/**
 * GET /v1/status/stream in the cloud: the status-stream Lambda (functions/status-stream.ts) behind
 * a function URL in RESPONSE_STREAM mode, since API Gateway can only buffer a response. The URL
 * has no IAM auth: the app checks the Bearer key like every API route.
 */
export class VigilStatusStream extends Construct {
  readonly handler: NodejsFunction;
  readonly url: FunctionUrl;

  constructor(scope: Construct, id: string, props: VigilStatusStreamProps) {
    super(scope, id);
    this.handler = new VigilFunction(this, 'Handler', {
      entry: 'functions/status-stream.ts',
      // The stream ends on its own first, so the client reconnects with Last-Event-ID instead of being cut off.
      timeout: Duration.millis(STATUS_STREAM_FUNCTION_MS + 30_000),
      environment: props.environment,
    }).function;
    // Reads the transition feed; writes only what every authenticated request writes (key
    // last-used time, the shared rate-limit window).
    props.table.grantReadWriteData(this.handler);
    this.url = this.handler.addFunctionUrl({
      authType: FunctionUrlAuthType.NONE,
      invokeMode: InvokeMode.RESPONSE_STREAM,
      // A Bearer key is no ambient credential, so any origin (the web console's too) may read the stream.
      cors: {
        allowedOrigins: ['*'],
        allowedMethods: [HttpMethod.GET],
        allowedHeaders: ['authorization', 'last-event-id'],
      },
    });
  }
}
