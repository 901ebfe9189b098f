import type { CheckType } from '../../check-types/check-config.ts';
import { type ExpectedStatus, expectedStatusesSchema, firstExpectedCode } from '../../domain/assertions.ts';
import { ValidationError } from '../../platform/errors.ts';
import { DEFAULTS } from './check-defaults.ts';

/**
 * An http check's status fields as create and update set them (DECISIONS.md "Checks (wave 5)"):
 * with `expected_statuses`, `expected_status` reads as the list's first code.
 */

/** The request field: the list, or null for exactly expected_status. */
export const statusesInput = expectedStatusesSchema.nullable();

type Statuses = ExpectedStatus[] | null;

/**
 * The status fields of a new definition: with a list, expected_status is its first code unless
 * given; without, the given code or the default. A list on another type, or an expected_status
 * that is not the list's first code, is a ValidationError naming the field.
 */
export function createdStatuses(type: CheckType, status: number | undefined, statuses: Statuses) {
  if (statuses && type !== 'http')
    throw ValidationError.field('expected_statuses', 'only http checks expect a status');
  const first = statuses ? firstExpectedCode(statuses) : undefined;
  if (status !== undefined && first !== undefined && status !== first)
    throw ValidationError.field(
      'expected_status',
      `reads as the first code of expected_statuses (${first}): leave it out or make it ${first}`,
    );
  return { expected_status: status ?? first ?? DEFAULTS.expected_status, expected_statuses: statuses };
}

/** The status fields after a patch: a lone expected_status means exactly that code, replacing a stored list. */
export function updatedStatuses(
  current: { check_type: CheckType; expected_status: number; expected_statuses?: Statuses | undefined },
  patch: { expected_status?: number | undefined; expected_statuses?: Statuses | undefined },
) {
  const statuses =
    patch.expected_statuses !== undefined
      ? patch.expected_statuses
      : patch.expected_status !== undefined
        ? null
        : (current.expected_statuses ?? null);
  const status = patch.expected_status ?? (statuses ? undefined : current.expected_status);
  return createdStatuses(current.check_type, status, statuses);
}
