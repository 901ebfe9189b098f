import * as z from 'zod';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';

/**
 * Owner of `sign_in_failures`: the failed sign-ins of one account (a digest of the e-mail typed,
 * known or not) in one hour, so that the person is told once per hour and the audit log records it
 * once (docs/auth.md "Failed sign-ins"): how many, how many were wrong second-factor codes, from how
 * many addresses, the latest and from where. Counted by atomic adds; kept a day past its hour.
 */

const signInFailuresSchema = z.object({
  account: z.string(),
  /** The hour's start (ISO). */
  hour: z.string(),
  failures: z.number().int().min(0),
  /** Failures whose password was right and whose second-factor code was wrong. */
  wrong_codes: z.number().int().min(0),
  /** Distinct source addresses among the failures. */
  addresses: z.number().int().min(0),
  last_at: z.string(),
  last_address: z.string().optional(),
  /** Set once, by the failure that told the person (e-mail, audit log). */
  notified_at: z.string().optional(),
});
export type SignInFailures = z.infer<typeof signInFailuresSchema>;

type HourKey = { account: string; hour: string };

const KEPT_AFTER_HOUR_S = 86_400;

const signInFailures = defineItem({
  type: itemType('sign_in_failures'),
  schema: signInFailuresSchema,
  key: (k: HourKey) => ({ pk: `SIGNINFAIL#${k.account}`, sk: `HOUR#${k.hour}` }),
  ttl: (r) => Math.floor(Date.parse(r.hour) / 1000) + 3600 + KEPT_AFTER_HOUR_S,
  docKey: { account: '<sha256 of the e-mail, 16 chars>', hour: '<hour start, ISO>' },
});

/** The account's failures of that hour, if any. */
export function getSignInFailures(table: Table, key: HourKey): Promise<SignInFailures | undefined> {
  return signInFailures.get(table, key, { consistent: true });
}

/** Adds one failure (and a new address, a wrong code) to the hour's count; answers the count after it. */
export async function addSignInFailure(
  table: Table,
  key: HourKey,
  failure: { at: string; address: string | undefined; newAddress: boolean; wrongCode: boolean },
): Promise<SignInFailures> {
  const item = await table.update(
    signInFailures.upsert(key, {
      set: {
        account: key.account,
        hour: key.hour,
        last_at: failure.at,
        ...(failure.address ? { last_address: failure.address } : {}),
      },
      add: { failures: 1, wrong_codes: failure.wrongCode ? 1 : 0, addresses: failure.newAddress ? 1 : 0 },
      ttl: Math.floor(Date.parse(key.hour) / 1000) + 3600 + KEPT_AFTER_HOUR_S,
    }),
  );
  return signInFailures.parse(item);
}

/** Marks the hour told; false when another failure told it already (the person is told once). */
export async function markSignInFailuresNotified(table: Table, key: HourKey, at: string): Promise<boolean> {
  try {
    await table.update(
      signInFailures.update(key, {
        set: { notified_at: at },
        condition: { kind: 'attrNotExists', attr: 'notified_at' },
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionFailedError) return false;
    throw err;
  }
}
