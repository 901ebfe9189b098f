import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDynamoTable } from '../../lib/dynamodb/dynamodb-table.ts';
import { createEmailRecipients } from '../../lib/notify/email/email-recipients.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import type { OutgoingEmail } from '../../lib/providers/email.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';
import type { Table } from '../../lib/store/table.ts';
import { createTestTable } from '../support/dynamodb-local.ts';

/**
 * The daily email quota is one counter item per tenant and UTC day, added to under a condition:
 * concurrent sends past the limit are refused atomically on both stores (SQLite and DynamoDB
 * Local), whatever their interleaving, and a send needing more than what is left is refused whole.
 */

const engines = [
  {
    engine: 'sqlite',
    open: async () => ({
      table: createSqliteTable({ db: openSqliteDatabase(':memory:') }),
      drop: async () => {},
    }),
  },
  {
    engine: 'dynamodb',
    open: async () => {
      const testTable = await createTestTable(inject('dynamodbEndpoint'));
      const table = createDynamoTable({ client: testTable.client, tableName: testTable.tableName });
      return { table, drop: testTable.drop };
    },
  },
];

describe.each(engines)('the daily email quota on $engine', ({ open }) => {
  let table: Table;
  let drop: () => Promise<void>;
  const sent: OutgoingEmail[] = [];
  const clock = createFakeClock(Date.parse('2026-03-02T23:00:00.000Z'));

  beforeAll(async () => {
    ({ table, drop } = await open());
  });
  afterAll(async () => {
    await drop?.();
  });

  const recipientsWithLimit = (limit: number) =>
    createEmailRecipients({
      table,
      clock,
      logger: silentLogger,
      transport: {
        async send(email) {
          sent.push(email);
          return { ok: true, status_code: null, error: null };
        },
      },
      from: { address: 'alerts@vigil.example.com' },
      publicUrl: 'https://vigil.example.com',
      dailyLimit: async () => limit,
    });

  async function confirmed(tenantId: string, address: string, limit: number) {
    const recipients = recipientsWithLimit(limit);
    await recipients.requestConfirmations(tenantId, [address]);
    const token = sent.at(-1)?.text.match(/email-confirmations\/[^/]+\/(\S+)/)?.[1];
    expect(token).toBeDefined();
    expect(await recipients.confirm(tenantId, decodeURIComponent(token ?? ''))).toBe(address);
    return recipients;
  }

  it('admits exactly the limit out of concurrent sends, then refuses until the next UTC day', async () => {
    // The confirmation email is the day's first of 6.
    const recipients = await confirmed('tnt_quota1', 'ops@example.com', 6);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => recipients.admit('tnt_quota1', ['ops@example.com'])),
    );
    expect(answers.filter((a) => 'to' in a)).toHaveLength(5);
    expect(answers.filter((a) => 'skipped' in a)).toEqual(
      Array.from({ length: 15 }, () => ({
        skipped: "email quota: the tenant's daily limit of 6 emails is reached",
      })),
    );
    // Another tenant has a quota of its own.
    const other = await confirmed('tnt_quota2', 'ops@example.com', 6);
    expect(await other.admit('tnt_quota2', ['ops@example.com'])).toEqual({ to: ['ops@example.com'] });

    clock.advance(3_600_000);
    expect(await recipients.admit('tnt_quota1', ['ops@example.com'])).toEqual({ to: ['ops@example.com'] });
  });

  it('refuses a send to more recipients than are left today, and counts one per recipient', async () => {
    const recipients = await confirmed('tnt_quota3', 'a@example.com', 4);
    await confirmed('tnt_quota3', 'b@example.com', 4);
    // Two confirmation emails spent: two left, three recipients refused whole.
    const three = ['a@example.com', 'b@example.com', 'a@example.com'];
    expect(await recipients.admit('tnt_quota3', three)).toHaveProperty('skipped');
    expect(await recipients.admit('tnt_quota3', ['a@example.com', 'b@example.com'])).toEqual({
      to: ['a@example.com', 'b@example.com'],
    });
    expect(await recipients.admit('tnt_quota3', ['a@example.com'])).toHaveProperty('skipped');
  });
});
