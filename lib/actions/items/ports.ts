import type { StateChangeEvent } from '../../domain/states.ts';
import type { ActionRecord } from './action-items.ts';
import type { ExecutionRecord } from './execution-items.ts';

/** One run of an action: who asked, and what fills the templates. */
export interface RunRequest {
  action: ActionRecord;
  trigger: ExecutionRecord['trigger'];
  /** Deterministic for triggered runs (a redelivered job finds it stored); new for manual runs. */
  executionId: string;
  /** The state change whose context fills the templates (state_change runs). */
  event?: StateChangeEvent;
  /** Manual runs: variables that override the built-in ones. */
  vars?: Record<string, string>;
}

/**
 * Runs actions (lib/actions/runs/execute.ts): fills the URL and body templates, checks the URL with the
 * SSRF guard (a denied URL is recorded as a `blocked` execution and nothing is sent), sends once
 * without following redirects, and records the execution with its callback token's hash. The
 * outbound call's failure is a `failed` execution, never a throw; a stored execution with the same
 * id is answered as it is, and nothing is sent again.
 */
export interface ActionRunner {
  run(request: RunRequest): Promise<ExecutionRecord>;
  /**
   * Marks the manual runs whose request is in flight `interrupted` (their records were written
   * `running` before the send); the process is stopping. A send that still completes afterwards
   * records its outcome over it. Answers how many were marked.
   */
  interruptInFlight(): Promise<number>;
}
