import { describe, expect, inject, it } from 'vitest';
import { runCronBurstCloud } from '../../bench/cronburst.ts';

/**
 * The top of the hour in the cloud (issue 78 point 5), as `npm run bench -- --only cronburst` runs
 * it, small: heartbeats of one tenant pinging through the ping function's handler over DynamoDB
 * Local, under the cost meter. No key every job writes is the tenant's: each check's state is in
 * its own partition. The meter counts the index partitions too (`gsi2:DUE#<shard>#<nn>`, a shard's
 * sub-keys), which every ping of a push check writes as it moves the check's deadline.
 */
describe('the cron burst through the cloud handlers, write units per partition key', () => {
  it("writes no tenant key, and counts the due index's partitions", { timeout: 120_000 }, async () => {
    const jobs = 12;
    const burst = await runCronBurstCloud({ jobs, endpoint: inject('dynamodbEndpoint') });
    expect(burst.starts).toEqual({ 200: jobs });
    expect(burst.successes).toEqual({ 200: jobs });
    expect(burst.runsFormed).toBe(jobs);
    const keys = burst.hottest.map((k) => k.pk);
    expect(keys.filter((pk) => pk.startsWith('TENANT#'))).toEqual([]);
    // The due index's sub-keys, one row: none of its entries under a shard's one key of earlier releases.
    expect(keys.filter((pk) => pk.startsWith('gsi2:DUE#'))).toEqual([
      'gsi2:DUE#<shard>#<nn> (each of 256, their mean)',
    ]);
    expect(burst.dueIndex).toMatchObject({ shards: 4, keys: 4 * 64 });
    // Each start moves its check's due entry (the jobs pinged an hour before): out of its shard's
    // partition and into it again, a write unit each.
    expect(burst.dueIndex.wcu).toBe(2 * jobs);
    // 100,000 jobs in one second: 2 WCU each over 256 keys, ~781 a key, under DynamoDB's 1,000.
    expect(burst.dueIndex.projectedPerKey).toBe((2 * 100_000) / 256);
    expect(burst.hottest.every((k) => k.projected <= 1000)).toBe(true);
    // A check's own partition takes its own pings, the same for every check.
    const own = burst.hottest.filter((k) => k.perCheck);
    expect(own.length).toBeGreaterThan(0);
    expect(new Set(own.map((k) => k.wcu)).size).toBe(1);
  });
});
