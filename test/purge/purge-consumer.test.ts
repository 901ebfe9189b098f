import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { purgeActionExecutions } from '../../lib/actions/items/action-purge.ts';
import { purgeEntityRelations } from '../../lib/catalog/relations/relation-purge.ts';
import { purgeEntityChecks } from '../../lib/checks/services/check-purge.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { newId } from '../../lib/platform/ids.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { createPurgeConsumer } from '../../lib/purge/purge-consumer.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/sqlite/sqlite-table.ts';
import type { Change } from '../../lib/store/change-feed.ts';
import { queryAll } from '../../lib/store/items.ts';
import type { Item, NewItem, WriteOp } from '../../lib/store/table.ts';

const TENANT = 'tnt_01J00000000000000000000000';

describe('the purge consumer', () => {
  let table: SqliteTable;
  let consume: (changes: Change[]) => Promise<void>;

  beforeEach(() => {
    table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    // The steps lib/app.ts registers: each owner purges its own items.
    consume = createPurgeConsumer({
      table,
      clock: createFakeClock(),
      logger: silentLogger,
      steps: {
        entity: [purgeEntityRelations, purgeEntityChecks],
        action: [purgeActionExecutions],
      },
    });
  });
  afterEach(async () => {
    await table.close();
  });

  const count = async (pk: string) => (await queryAll((cursor) => table.query({ pk, cursor }))).length;

  /** Puts items as version 1 of their types. */
  async function putAll(items: Item[]): Promise<void> {
    for (let i = 0; i < items.length; i += 100) {
      const chunk = items.slice(i, i + 100);
      await table.transact(
        chunk.map((item): WriteOp => ({ type: 'put', item: { schema_version: 1, ...item } })),
      );
    }
  }

  /** The change record of the job's current state, as the feed would deliver it. */
  async function jobChange(sk: string, eventName: 'INSERT' | 'MODIFY' = 'MODIFY'): Promise<Change> {
    const image = await table.get({ pk: `PURGE#${TENANT}`, sk });
    if (!image) throw new Error(`no job ${sk}`);
    return {
      eventId: newId('req'),
      eventName,
      keys: { pk: image.pk, sk },
      newImage: image,
      oldImage: undefined,
      expired: false,
    };
  }

  async function partitionJob(partition: string): Promise<string> {
    const sk = `PARTITION#${partition}`;
    await putAll([
      {
        pk: `PURGE#${TENANT}`,
        sk,
        entity: 'purge_job',
        tenant_id: TENANT,
        kind: 'partition',
        partition,
        round: 0,
      },
    ]);
    return sk;
  }

  it('deletes a large partition in bounded rounds and then the job', async () => {
    const partition = `CHECK#${newId('chk')}`;
    await putAll(
      Array.from({ length: 1201 }, (_, i) => ({ pk: partition, sk: `RES#${i}`, entity: 'check_result' })),
    );
    const sk = await partitionJob(partition);

    await consume([await jobChange(sk, 'INSERT')]);
    expect(await count(partition)).toBe(701);
    await consume([await jobChange(sk)]);
    expect(await count(partition)).toBe(201);
    await consume([await jobChange(sk)]);
    expect(await count(partition)).toBe(0);
    expect(await table.get({ pk: `PURGE#${TENANT}`, sk })).toBeUndefined();
  });

  it('ignores a redelivered record of a round already done', async () => {
    const partition = `CHECK#${newId('chk')}`;
    await putAll(
      Array.from({ length: 600 }, (_, i) => ({ pk: partition, sk: `RES#${i}`, entity: 'check_result' })),
    );
    const sk = await partitionJob(partition);
    const first = await jobChange(sk, 'INSERT');
    await consume([first]);
    expect(await count(partition)).toBe(100);
    await consume([first]);
    expect(await count(partition)).toBe(100);
    expect((await table.get({ pk: `PURGE#${TENANT}`, sk }))?.round).toBe(1);
  });

  it('handles each job once per batch, however often it appears', async () => {
    const partition = `CHECK#${newId('chk')}`;
    await putAll(
      Array.from({ length: 600 }, (_, i) => ({ pk: partition, sk: `RES#${i}`, entity: 'check_result' })),
    );
    const sk = await partitionJob(partition);
    const change = await jobChange(sk, 'INSERT');
    await consume([change, change, change]);
    expect(await count(partition)).toBe(100);
  });

  it('refuses to purge a partition that is not a check partition', async () => {
    await putAll([{ pk: `TENANT#${TENANT}`, sk: '#TENANT', entity: 'tenant' }]);
    const sk = await partitionJob(`TENANT#${TENANT}`);
    await consume([await jobChange(sk, 'INSERT')]);
    expect(await count(`TENANT#${TENANT}`)).toBe(1);
    expect(await table.get({ pk: `PURGE#${TENANT}`, sk })).toBeUndefined();
  });

  it('turns each check of a deleted entity into a partition job, over several rounds when there are many', async () => {
    const entityId = newId('ent');
    const checkIds = Array.from({ length: 150 }, () => newId('chk'));
    await putAll(
      checkIds.map((id) => ({
        pk: `TENANT#${TENANT}`,
        sk: `CHECK#${id}`,
        entity: 'check',
        gsi1pk: `ENT#${entityId}#CHECKS`,
        gsi1sk: id,
      })),
    );
    const sk = `ENTITY#${entityId}`;
    await putAll([
      {
        pk: `PURGE#${TENANT}`,
        sk,
        entity: 'purge_job',
        tenant_id: TENANT,
        kind: 'entity',
        entity_id: entityId,
        round: 0,
      },
    ]);

    await consume([await jobChange(sk, 'INSERT')]);
    expect(await count(`PURGE#${TENANT}`)).toBe(1 + 100);
    await consume([await jobChange(sk)]);
    expect(await table.get({ pk: `PURGE#${TENANT}`, sk })).toBeUndefined();
    const jobs = await queryAll((cursor) => table.query({ pk: `PURGE#${TENANT}`, cursor }));
    expect(jobs.map((job) => job.partition).sort()).toEqual(checkIds.map((id) => `CHECK#${id}`).sort());
    const checks = await queryAll((cursor) =>
      table.query({ index: 'gsi1', pk: `ENT#${entityId}#CHECKS`, cursor }),
    );
    expect(checks).toEqual([]);
  });

  it('ignores removals and items that are not purge jobs', async () => {
    const partition = `CHECK#${newId('chk')}`;
    await putAll([{ pk: partition, sk: 'RES#1', entity: 'check_result' }]);
    const sk = await partitionJob(partition);
    const job = await jobChange(sk);
    const other: NewItem = { pk: partition, sk: 'RES#1', entity: 'check_result', schema_version: 1 };
    await consume([
      { ...job, eventName: 'REMOVE', newImage: undefined, oldImage: job.newImage },
      { ...job, keys: { pk: other.pk, sk: other.sk }, newImage: other },
    ]);
    expect(await count(partition)).toBe(1);
  });
});
