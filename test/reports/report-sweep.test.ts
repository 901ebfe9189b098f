import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { userCreatedOps, userReportOp } from '../../lib/auth/records.ts';
import { tenantCreatedOp } from '../../lib/auth/tenants/tenant-items.ts';
import type { EmailTransport, OutgoingEmail } from '../../lib/notify/email-transport.ts';
import { spendEmailQuota } from '../../lib/notify/email-transport.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { getReportClaim } from '../../lib/reports/report-claim-items.ts';
import { lastWholePeriod, type ReportFrequency } from '../../lib/reports/report-period.ts';
import { CLAIM_LEASE_MS, createReportSender } from '../../lib/reports/report-sender.ts';
import { createCursorSeal } from '../../lib/store/cursor-seal.ts';
import type { Table } from '../../lib/store/table.ts';
import { tableEngines } from '../support/table-engines.ts';

/**
 * The report sweep on both engines, with a transport that records what it is given: one report
 * per person and period whatever the sweeps, restarts and failed sends; none to people who opted
 * out; none for a period that ended before the person asked. Generated clock moves (seed printed).
 */

const T0 = Date.parse('2026-11-26T10:00:00.000Z');
const HOUR = 3_600_000;
let tenantSerial = 0;

interface Recorder extends EmailTransport {
  sent: OutgoingEmail[];
  failNext: number;
}

function recorder(): Recorder {
  const r: Recorder = {
    sent: [],
    failNext: 0,
    async send(email) {
      if (r.failNext > 0) {
        r.failNext -= 1;
        return { ok: false, status_code: null, error: 'the SMTP server answered: 451 try later' };
      }
      r.sent.push(email);
      return { ok: true, status_code: null, error: null };
    },
  };
  return r;
}

async function seed(table: Table, people: { report: ReportFrequency; zone: string }[], sinceMs: number) {
  tenantSerial += 1;
  const tenantId = `tnt_rep${tenantSerial}_${Math.random().toString(36).slice(2, 8)}`;
  const at = new Date(sinceMs).toISOString();
  await table.transact([
    tenantCreatedOp({
      id: tenantId,
      name: 'Acme',
      email: 'admin@acme.example',
      disabled: false,
      admin_count: 1,
      created_at: at,
      updated_at: at,
      blueprint_limit: 50,
      entity_limit_per_bp: 1000,
      check_limit_per_entity: 20,
      retention_days: 30,
      email_daily_limit: 10_000,
    }),
  ]);
  const users = people.map((p, i) => ({ ...p, id: `usr_${i}`, email: `p${i}@${tenantId}.example` }));
  for (const u of users) {
    await table.transact(
      userCreatedOps({
        id: u.id,
        tenant_id: tenantId,
        email: u.email,
        name: `Person ${u.id}`,
        role: 'member',
        created_at: at,
        updated_at: at,
      }),
    );
    await table.transact([
      userReportOp(tenantId, u.id, {
        report: u.report,
        report_time_zone: u.zone,
        report_since: at,
        updated_at: at,
      }),
    ]);
  }
  return { tenantId, users };
}

function senderOn(table: Table, clock: ReturnType<typeof createFakeClock>, transport: EmailTransport) {
  return createReportSender({
    table,
    clock,
    logger: silentLogger,
    cursors: createCursorSeal(async () => Buffer.alloc(32, 7)),
    transport,
    spendEmailQuota: (tenantId, count, limit) => spendEmailQuota({ table, clock }, tenantId, count, limit),
    from: { address: 'reports@vigil.example.com' },
    publicUrl: 'https://vigil.example.com',
  });
}

/** Sweeps of other tests' tenants (one DynamoDB Local table per file) are left out of what is counted. */
const to = (r: Recorder, tenantId: string) => r.sent.filter((m) => m.to[0]?.endsWith(`@${tenantId}.example`));

describe.each(tableEngines())('report sweep ($engine)', ({ engine, make }) => {
  it('sends each opted-in person the report of their last whole period once, and nothing to those opted out', async () => {
    const table = make();
    const clock = createFakeClock(T0 - 30 * 24 * HOUR);
    const { tenantId, users } = await seed(
      table,
      [
        { report: 'weekly', zone: 'Europe/Berlin' },
        { report: 'monthly', zone: 'UTC' },
        { report: 'off', zone: 'UTC' },
      ],
      clock.now(),
    );
    clock.set(T0);
    const mail = recorder();
    const sender = senderOn(table, clock, mail);

    await sender.sweep();
    await sender.sweep();
    // A second process (a restart, a redelivered invocation) finds the periods claimed.
    await senderOn(table, clock, mail).sweep();

    const sent = to(mail, tenantId);
    expect(sent.map((m) => m.to[0]).sort()).toEqual([users[0]?.email, users[1]?.email].sort());
    const weekly = sent.find((m) => m.to[0] === users[0]?.email);
    expect(weekly?.subject).toContain('weekly report, 16 Nov 2026 – 22 Nov 2026 (Europe/Berlin)');
    expect(weekly?.headers?.['List-Unsubscribe']).toMatch(
      /^<https:\/\/vigil\.example\.com\/v1\/reports\/unsubscribe\/[\w-]+>$/,
    );
    expect(weekly?.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const claim = await getReportClaim(table, {
      tenant_id: tenantId,
      user_id: 'usr_0',
      period: 'weekly:2026-11-16',
    });
    expect(claim?.state).toBe('sent');
  });

  it('tries a failed send again once its claim has run out, and then sends it once', async () => {
    const table = make();
    const clock = createFakeClock(T0 - 30 * 24 * HOUR);
    const { tenantId } = await seed(table, [{ report: 'weekly', zone: 'UTC' }], clock.now());
    clock.set(T0);
    const mail = recorder();
    mail.failNext = 1;
    const sender = senderOn(table, clock, mail);

    await sender.sweep();
    expect(to(mail, tenantId)).toHaveLength(0);
    await sender.sweep(); // the claim is still its first sender's
    expect(to(mail, tenantId)).toHaveLength(0);
    clock.advance(CLAIM_LEASE_MS + 1);
    await sender.sweep();
    await sender.sweep();

    expect(to(mail, tenantId)).toHaveLength(1);
  });

  it('sends no report of a period that ended before the person asked for reports', async () => {
    const table = make();
    const clock = createFakeClock(T0);
    const { tenantId } = await seed(table, [{ report: 'weekly', zone: 'UTC' }], clock.now());
    const mail = recorder();
    const sender = senderOn(table, clock, mail);

    await sender.sweep();
    expect(to(mail, tenantId)).toHaveLength(0);
    clock.set(Date.parse('2026-11-30T00:05:00.000Z'));
    await sender.sweep();
    expect(to(mail, tenantId).map((m) => m.subject)).toEqual([
      expect.stringContaining('23 Nov 2026 – 29 Nov 2026'),
    ]);
  });

  const seedRun = process.env.VIGIL_MODEL_SEED ? Number(process.env.VIGIL_MODEL_SEED) : Date.now() % 2 ** 31;
  it(`gives every period exactly one report per opted-in person over generated clock moves, failures and restarts (seed ${seedRun})`, async () => {
    console.info(`report sweep (${engine}): seed ${seedRun}`);
    const person = fc.record({
      report: fc.constantFrom<ReportFrequency>('off', 'weekly', 'monthly'),
      zone: fc.constantFrom('UTC', 'Europe/Berlin', 'America/Los_Angeles', 'Asia/Tokyo'),
    });
    const step = fc.record({
      advanceMs: fc.integer({ min: 0, max: 9 * 24 * HOUR }),
      failures: fc.integer({ min: 0, max: 2 }),
      restart: fc.boolean(),
      sweeps: fc.integer({ min: 1, max: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(person, { minLength: 1, maxLength: 4 }),
        fc.array(step, { minLength: 1, maxLength: 8 }),
        async (people, steps) => {
          const table = make();
          const startMs = T0 - 40 * 24 * HOUR;
          const clock = createFakeClock(startMs);
          const { tenantId, users } = await seed(table, people, startMs);
          const mail = recorder();
          let sender = senderOn(table, clock, mail);
          const expected = new Map(users.map((u) => [u.email, new Set<string>()]));
          for (const s of steps) {
            clock.advance(s.advanceMs);
            // A failed send is retried within its period: a step never starts within a lease of
            // a period's end (past it, the sweep sends the new last period, as it should).
            const keys = (ms: number) =>
              users.map((u) => (u.report === 'off' ? '' : lastWholePeriod(u.report, u.zone, ms).key)).join();
            if (keys(clock.now()) !== keys(clock.now() + CLAIM_LEASE_MS + 1))
              clock.advance(CLAIM_LEASE_MS + 1);
            mail.failNext = s.failures;
            if (s.restart) sender = senderOn(table, clock, mail);
            for (let i = 0; i < s.sweeps; i += 1) await sender.sweep();
            // Whatever failed is sent by a later sweep once its claim ran out.
            clock.advance(CLAIM_LEASE_MS + 1);
            mail.failNext = 0;
            await sender.sweep();
            for (const u of users) {
              if (u.report === 'off') continue;
              const period = lastWholePeriod(u.report, u.zone, clock.now());
              if (period.endMs > startMs) expected.get(u.email)?.add(period.key);
            }
          }
          const sent = to(mail, tenantId);
          for (const u of users) {
            const mine = sent.filter((m) => m.to[0] === u.email).map((m) => m.subject);
            expect(new Set(mine).size, `${u.email}: no period twice`).toBe(mine.length);
            expect(mine.length, `${u.email} (${u.report})`).toBe(expected.get(u.email)?.size ?? 0);
          }
        },
      ),
      { seed: seedRun, numRuns: engine === 'sqlite' ? 40 : 8 },
    );
  }, 120_000);
});
