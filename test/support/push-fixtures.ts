/** An API call that asserts its status when one is given, answering the parsed body. */
// biome-ignore lint/suspicious/noExplicitAny: the API's answers are inspected freely
type Call = (method: string, path: string, body?: unknown, expected?: number) => Promise<any>;
/** An API call that throws on a failed answer (adminCall), answering the parsed body. */
// biome-ignore lint/suspicious/noExplicitAny: the API's answers are inspected freely
type AdminCall = (method: string, path: string, body?: unknown) => Promise<any>;

/**
 * An entity of `blueprint` (svc unless named) with a push check down at its first failure
 * (threshold 1), expecting a result every `intervalSeconds` (60 unless given), made through the API.
 */
export async function entityWithPushCheck(
  call: AdminCall,
  entity: { slug: string; name: string },
  options: { blueprint?: string; intervalSeconds?: number } = {},
): Promise<{ entityId: string; checkId: string }> {
  const made = await call('POST', `/v1/blueprints/${options.blueprint ?? 'svc'}/entities`, entity);
  const check = await call('POST', '/v1/checks', {
    entity_id: made.id,
    check_type: 'push',
    interval_seconds: options.intervalSeconds ?? 60,
    failure_threshold: 1,
  });
  return { entityId: String(made.id), checkId: String(check.id) };
}

/** A check's policy (no cooldown unless given) with a webhook channel of its own posting to `config.url`; answers the channel. */
export async function alertToWebhook(
  call: AdminCall,
  checkId: string,
  config: { url: string; secret?: string },
  policy: Record<string, unknown> = { cooldown_seconds: 0 },
): Promise<{ id: string }> {
  await call('POST', `/v1/checks/${checkId}/policy`, policy);
  return call('POST', `/v1/checks/${checkId}/policy/channels`, { channel_type: 'webhook', config });
}

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
