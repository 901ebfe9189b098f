import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { STATUS_STREAM_FUNCTION_MS } from '../lib/status/stream-service.ts';
import { StreamingFunction } from './streaming-function.ts';

export interface VigilStatusStreamProps {
  readonly table: ITable;
  readonly environment: Record<string, string>;
  /** The cap on its concurrent instances (infra/capacity.ts). */
  readonly concurrency: number;
}

/** GET /v1/status/stream in the cloud: the status-stream Lambda (functions/status-stream.ts) behind its function URL. */
export class VigilStatusStream extends StreamingFunction {
  constructor(scope: Construct, id: string, props: VigilStatusStreamProps) {
    super(scope, id, {
      ...props,
      entry: 'functions/status-stream.ts',
      // The stream ends on its own first, so the client reconnects with Last-Event-ID instead of being cut off.
      timeout: Duration.millis(STATUS_STREAM_FUNCTION_MS + 30_000),
    });
  }
}
