import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { StreamingFunction } from './streaming-function.ts';

/**
 * The configuration function's timeout, Lambda's longest. An apply has no time limit of its own:
 * what bounds it is the tenant's configuration bucket, which admits at most
 * VIGIL_CONFIG_OBJECTS_BURST changes (10,000 by default) per apply, taken up front, made 16 at a
 * time per list (docs/config.md "Limits"). At some tens of milliseconds per object that is a
 * minute or two; the rest leaves room for a slow store and for channels whose URLs are resolved
 * before they are saved. When the timeout does cut an apply, the objects that landed stay landed
 * and applying the same document again completes the rest.
 */
export const CONFIG_FUNCTION_TIMEOUT_MS = 15 * 60_000;

export interface VigilConfigDocsProps {
  readonly table: ITable;
  /** Runtime settings every function shares, with the egress settings (channel URLs are checked on save). */
  readonly environment: Record<string, string>;
  /** The cap on its concurrent instances (infra/capacity.ts). */
  readonly concurrency: number;
}

/**
 * /v1/config/* in the cloud: the configuration Lambda (functions/config.ts) behind its function
 * URL, streamed, since an apply of thousands of objects outlasts API Gateway's 29 s and its
 * NDJSON progress can only arrive line by line from a streaming response. The apply's objects are
 * the tenant's own API routes called in-process, which read and write the table and nothing else.
 */
export class VigilConfigDocs extends StreamingFunction {
  constructor(scope: Construct, id: string, props: VigilConfigDocsProps) {
    super(scope, id, {
      ...props,
      entry: 'functions/config.ts',
      timeout: Duration.millis(CONFIG_FUNCTION_TIMEOUT_MS),
    });
  }
}
