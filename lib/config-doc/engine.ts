import type { InvokeCaller, RouteInvoker } from '../http/router.ts';
import { type Api, type ApplyResult, type ConfigEngine, keysInOrder, type Plan } from './kind.ts';
import { runApply } from './plan/apply.ts';
import { API_VERSION, DOC_KIND, type KindSet, parseDocument } from './plan/document.ts';
import { unsetWarnings } from './plan/plan-warnings.ts';
import { checkReferences, planChanges, readTenant } from './plan/tenant-state.ts';
import { exportedSecrets } from './secrets.ts';

export interface ConfigEngineDeps {
  kinds: KindSet;
  invoke: RouteInvoker;
  /**
   * Takes `count` tokens from the caller's tenant's bucket of configuration objects, or throws
   * 429 (RateLimitedError): an apply is charged per object, up front, before anything is written.
   */
  charge?: (caller: InvokeCaller, count: number) => Promise<void>;
  /** Objects of one kind in flight at once (default APPLY_BATCH). */
  batch?: number;
}

/**
 * The configuration engine (docs/config.md): parses a document, reads the tenant through the
 * kinds, and plans, applies and exports through the tenant's own API called as the caller.
 */
export function createConfigEngine(deps: ConfigEngineDeps): ConfigEngine {
  const { kinds } = deps;
  const apiOf =
    (caller: InvokeCaller): Api =>
    (call) =>
      deps.invoke(caller, call);

  /** Parse first: a bad document answers 400 without a single read of the tenant. */
  const prepare = async (caller: InvokeCaller, document: unknown, prune: boolean) => {
    const doc = parseDocument(kinds, document);
    const api = apiOf(caller);
    const state = await readTenant(kinds, api);
    checkReferences(kinds, doc, state, prune);
    return { doc, api, state, ...planChanges(kinds, doc, state, prune) };
  };

  return {
    async plan(caller, document, options = {}): Promise<Plan> {
      const { doc, changes } = await prepare(caller, document, options.prune === true);
      return { changes, unmapped: doc.unmapped, warnings: unsetWarnings(kinds, doc, changes) };
    },

    async apply(caller, document, options = {}): Promise<ApplyResult> {
      const planned = await prepare(caller, document, options.prune === true);
      if (planned.changes.length > 0) await deps.charge?.(caller, planned.changes.length);
      const changes = await runApply({
        kinds,
        api: planned.api,
        doc: planned.doc,
        state: planned.state,
        changes: planned.changes,
        onProgress: options.onProgress,
        logger: caller.request.logger,
        ...(deps.batch ? { batch: deps.batch } : {}),
      });
      const summary = { created: 0, updated: 0, deleted: 0, failed: 0, unchanged: planned.unchanged };
      for (const change of changes) {
        if (change.status === 'failed') summary.failed++;
        else summary[`${change.op}d` as 'created' | 'updated' | 'deleted']++;
      }
      return { changes, unmapped: planned.doc.unmapped, applied: summary.failed === 0, summary };
    },

    async exportDocument(caller) {
      const state = await readTenant(kinds, apiOf(caller));
      const document: Record<string, unknown> = { apiVersion: API_VERSION, kind: DOC_KIND };
      for (const key of keysInOrder(kinds)) {
        const kind = kinds[key];
        if (!kind) continue;
        const objects = [...(state.current.get(key)?.entries() ?? [])].sort(([a], [b]) =>
          a < b ? -1 : a > b ? 1 : 0,
        );
        document[key] = objects.map(([identity, object]) => exportedSecrets(key, identity, object.doc));
      }
      return document;
    },
  };
}
