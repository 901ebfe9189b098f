import { transitionRecordedOp } from '../../lib/checks/items/transition-items.ts';
import type { TransitionRecord } from '../../lib/checks/results.ts';
import { pagingFor } from '../../lib/escalation/compose-paging.ts';
import { policyCreatedOp } from '../../lib/escalation/policy-items.ts';
import { incidentOpenedBy } from '../../lib/incidents/incident-consumer.ts';
import { type IncidentRecord, openIncident } from '../../lib/incidents/incident-items.ts';
import { pagingParts } from '../../lib/notify/compose-notifier.ts';
import type { NotifyJob } from '../../lib/notify/jobs.ts';
import { createSmtpTransport } from '../../lib/notify/smtp-transport.ts';
import { createFakeClock, isoTime } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { newId } from '../../lib/platform/ids.ts';
import { createLogger } from '../../lib/platform/logger.ts';
import { createCursorSeal } from '../../lib/store/cursor-seal.ts';
import { loadCursorSecret } from '../../lib/store/cursor-secret.ts';
import type { Key, Table, UpdateOp } from '../../lib/store/table.ts';
import { memoryJobQueue } from '../notify/support/memory-queue.ts';
import type { TestSmtpServer } from '../support/smtp-server.ts';
import { pageablePeople } from './support.ts';

/**
 * The paging jobs' handler as the runtimes compose it (`pagingFor`), over a table of either engine
 * (test/support/table-engines.ts) on a fake clock, people paged by e-mail through a real SMTP
 * server: for tests that drive one job at a time and control what the store answers in between.
 * The log lines the handler writes are kept (parsed), and the jobs it enqueues are in `queue.enqueued`.
 */

type ClimbJob = Extract<NotifyJob, { kind: 'climb' }>;

export async function pagingRig(table: Table, smtp: TestSmtpServer, env: Record<string, string> = {}) {
  const clock = createFakeClock(Date.parse('2026-03-02T09:00:00.000Z'));
  const tenantId = newId('tnt', clock.now());
  const lines: { msg: string; [field: string]: unknown }[] = [];
  const logger = createLogger({ level: 'debug', write: (line) => lines.push(JSON.parse(line)) });
  const queue = memoryJobQueue<NotifyJob>();
  const config = loadConfig('local', {
    VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
    VIGIL_EMAIL_FROM: 'Vigil <pages@vigil.example.com>',
    VIGIL_PUBLIC_URL: 'https://vigil.example.com',
    ...env,
  });
  const handle = pagingFor({
    table,
    clock,
    logger,
    config,
    cursors: createCursorSeal(() => loadCursorSecret(table)),
    email: createSmtpTransport({ url: smtp.url, egressAllow: ['127.0.0.0/8'], runtime: 'local' }),
    queue,
    publicUrl: config.publicUrl,
    emailDailyLimit: async () => 1000,
  })(pagingParts(table, { pageChannels: async () => [] }));

  /** A policy of one step paging `userIds`, stored as its create leaves it. */
  async function policyPaging(userIds: readonly string[]) {
    const nowMs = clock.now();
    const id = newId('esp', nowMs);
    await table.transact([
      policyCreatedOp({
        id,
        tenant_id: tenantId,
        name: 'Ladder',
        steps: [{ delay_seconds: 300, targets: userIds.map((u) => ({ type: 'user' as const, id: u })) }],
        repeat: 0,
        created_at: isoTime(nowMs),
        updated_at: isoTime(nowMs),
        version: 1,
      }),
    ]);
    return id;
  }

  /**
   * An entity's change from up to down (`error`: the check's words), the incident it opens as the
   * incidents consumer builds it, and the first step's `climb` job the notifier enqueues for it.
   */
  function downChange(policyId: string, entityName = 'Shop API') {
    const nowMs = clock.now();
    const transitionId = newId('trn', nowMs);
    const event = {
      tenant_id: tenantId,
      entity_id: newId('ent', nowMs),
      entity_name: entityName,
      check_id: newId('chk', nowMs),
      from_state: 'up',
      to_state: 'down',
      transition_id: transitionId,
      timestamp: isoTime(nowMs),
    };
    const transition: TransitionRecord = {
      ...event,
      id: transitionId,
      kind: 'entity',
      from_state: 'up',
      to_state: 'down',
      reason: 'HTTP 503 from https://shop.example.com/health',
      created_at: event.timestamp,
    };
    const incident: IncidentRecord = incidentOpenedBy(transition, false);
    const job: ClimbJob = {
      kind: 'climb',
      event,
      incident_id: incident.id,
      route_id: newId('rte', nowMs),
      policy_id: policyId,
      round: 0,
      step: 0,
      due_ms: nowMs,
    };
    const open = async () => {
      await table.transact([transitionRecordedOp(transition, 30)]);
      return openIncident(table, incident);
    };
    return { event, incident, job, open };
  }

  return {
    clock,
    tenantId,
    lines,
    queue,
    handle,
    policyPaging,
    downChange,
    people: (names: readonly string[], more?: Parameters<typeof pageablePeople>[2]) =>
      pageablePeople({ table, tenantId, time: { clock } }, names, more),
  };
}

/**
 * `table`, except that the first `get` of a key `isKey` picks that finds nothing runs `between`
 * before it answers: what another process commits between that read and the reader's next one.
 */
export function interleaved(
  table: Table,
  isKey: (key: Key) => boolean,
  between: () => Promise<unknown>,
): Table {
  let ran = false;
  return {
    get: async (key, options) => {
      const item = await table.get(key, options);
      if (!ran && item === undefined && isKey(key)) {
        ran = true;
        await between();
      }
      return item;
    },
    batchGet: (keys) => table.batchGet(keys),
    query: (input) => table.query(input),
    transact: (ops) => table.transact(ops),
    update: (op) => table.update(op),
    close: () => table.close(),
  };
}

/**
 * `table`, except that the updates `lost` picks are answered as done but never written: what a
 * process killed after its send and before its write of the outcome leaves in the store.
 */
export function losingUpdates(table: Table, lost: (op: UpdateOp) => boolean): Table {
  return {
    get: (key, options) => table.get(key, options),
    batchGet: (keys) => table.batchGet(keys),
    query: (input) => table.query(input),
    transact: (ops) => table.transact(ops),
    update: async (op) => {
      if (!lost(op)) return table.update(op);
      const item = await table.get(op.key, { consistent: true });
      if (!item) throw new Error('a lost update of an item that is not there');
      return item;
    },
    close: () => table.close(),
  };
}
