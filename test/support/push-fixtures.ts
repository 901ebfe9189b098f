/** An API call that asserts its status when one is given, answering the parsed body. */
// biome-ignore lint/suspicious/noExplicitAny: the API's answers are inspected freely
type Call = (method: string, path: string, body?: unknown, expected?: number) => Promise<any>;

/**
 * Entities with a push check each (threshold 1: one failed result takes the entity down) and their
 * results, made through the API: what the notification and action flow harnesses drive.
 */
export function pushCheckFixtures(call: Call, settle: () => Promise<void>) {
  let entityCount = 0;
  return {
    /** An entity with a push check (threshold 1): one failed result takes it down. */
    async entityWithCheck(name: string): Promise<{ entityId: string; checkId: string }> {
      if (entityCount === 0) await call('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' }, 201);
      entityCount += 1;
      const entity = await call(
        'POST',
        '/v1/blueprints/svc/entities',
        { slug: `e${entityCount}`, name },
        201,
      );
      const check = await call(
        'POST',
        '/v1/checks',
        { entity_id: entity.id, check_type: 'push', interval_seconds: 3600, failure_threshold: 1 },
        201,
      );
      return { entityId: entity.id, checkId: check.id };
    },
    /** A push result now, then the flow it starts. */
    async result(checkId: string, success: boolean): Promise<void> {
      await call(
        'POST',
        `/v1/checks/${checkId}/results`,
        { success, latency_ms: 5, error_message: success ? '' : 'boom' },
        201,
      );
      await settle();
    },
  };
}
