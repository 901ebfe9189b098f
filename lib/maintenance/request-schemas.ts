import * as z from 'zod';
import { slugSchema } from '../domain/formats.ts';
import { cronProblem, isTimeZone } from '../domain/schedules.ts';
import { documentedAs, idSchema, namesResource } from '../http/route-schemas.ts';
import { WINDOW_LIMITS } from './maintenance-items.ts';

/** Request bodies of the maintenance routes; unknown fields are rejected (400). */

/** The longest run of a recurring window: a week (a longer one is a one-off window). */
export const MAX_DURATION_SECONDS = 7 * 24 * 3600;

/** How long before each run a recurring window is shown when its body does not say: one day. */
export const DEFAULT_ANNOUNCE_LEAD_SECONDS = 86_400;

const windowIdSchema = namesResource(idSchema('mnt'), 'maintenance window');
export const windowParams = z.object({ id: windowIdSchema });

const isoUtc = z.iso.datetime().meta({ description: 'ISO 8601 UTC (Z)' });

const windowFields = {
  name: z.string().regex(/\S/, 'This field is required.').trim().min(1).max(WINDOW_LIMITS.name),
  entity_ids: z.array(idSchema('ent')).max(WINDOW_LIMITS.entityIds).default([]),
  blueprint_slugs: z.array(slugSchema()).max(WINDOW_LIMITS.blueprintSlugs).default([]),
  include_dependents: z
    .boolean()
    .default(false)
    .meta({ description: 'Entities that depend_on a covered entity, transitively, are covered too' }),
  announce: z.boolean().default(false).meta({
    description:
      'Show the window on the status pages that show an entity it covers: ahead, while on, and for 24 h after',
  }),
  public_note: z
    .string()
    .max(WINDOW_LIMITS.publicNote, `Keep the note to ${WINDOW_LIMITS.publicNote} characters.`)
    .nullable()
    .optional()
    .meta({
      description:
        'Markdown shown with the notice (paragraphs, emphasis, lists, links, code; HTML is shown as text); blank or null: none',
    }),
};
const announceFromField = isoUtc.meta({
  description:
    'One-off windows: when the pages start to show it (ISO 8601 UTC, at or before starts_at); absent: as soon as it is announced',
});
const announceLeadField = z
  .number()
  .int()
  .min(0)
  .max(WINDOW_LIMITS.announceLeadSeconds)
  .meta({
    description: `Recurring windows: each run is shown this many seconds before it starts (default ${DEFAULT_ANNOUNCE_LEAD_SECONDS}, one day)`,
  });
const cronField = z
  .string()
  .max(200)
  .meta({ description: '5 fields (minute hour day-of-month month day-of-week), read in timezone' });
const durationField = z.number().int().min(60).max(MAX_DURATION_SECONDS);
const timezoneField = z.string().max(64).meta({ description: 'IANA name, default UTC' });

/**
 * The window as the OpenAPI document states it: one-off or recurring, each with its own required
 * fields, the timezone one of the runtime's IANA names and the cron five fields. What no schema
 * says stays windowBody's: starts_at before ends_at, the cron's grammar, stored entities, at least
 * one entity or blueprint.
 */
const documentedWindow = z.union([
  z.strictObject({
    ...windowFields,
    starts_at: isoUtc,
    ends_at: isoUtc,
    announce_from: announceFromField.optional(),
  }),
  z.strictObject({
    ...windowFields,
    announce_lead_seconds: announceLeadField.optional(),
    cron: cronField.regex(/^\s*\S+(\s+\S+){4}\s*$/),
    duration_seconds: durationField,
    timezone: z
      .enum(['UTC', ...Intl.supportedValuesOf('timeZone').filter((name) => name !== 'UTC')])
      .optional(),
  }),
]);

/**
 * A window as created or replaced (PUT takes the whole window): either `starts_at` + `ends_at`
 * (one-off) or `cron` + `duration_seconds` (+ `timezone`, default UTC) for a recurring one.
 */
export const windowBody = z
  .strictObject({
    ...windowFields,
    starts_at: isoUtc.optional(),
    ends_at: isoUtc.optional(),
    cron: cronField.optional(),
    duration_seconds: durationField.optional(),
    timezone: timezoneField.optional(),
    announce_from: announceFromField.optional(),
    announce_lead_seconds: announceLeadField.optional(),
  })
  .superRefine((body, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (body.entity_ids.length === 0 && body.blueprint_slugs.length === 0)
      issue('entity_ids', 'Choose at least one entity or blueprint to cover.');
    const oneOff = body.starts_at !== undefined || body.ends_at !== undefined;
    const recurring =
      body.cron !== undefined || body.duration_seconds !== undefined || body.timezone !== undefined;
    if (oneOff && recurring)
      return issue('cron', 'Give either starts_at and ends_at, or cron and duration_seconds.');
    if (recurring) {
      if (body.cron === undefined) issue('cron', 'This field is required for a recurring window.');
      if (body.duration_seconds === undefined)
        issue('duration_seconds', 'This field is required for a recurring window.');
      const timezone = body.timezone ?? 'UTC';
      if (!isTimeZone(timezone)) return issue('timezone', 'Enter a timezone name, such as Europe/Berlin.');
      const problem = body.cron === undefined ? undefined : cronProblem(body.cron, timezone);
      if (problem) issue('cron', problem);
      if (body.announce_from !== undefined)
        issue(
          'announce_from',
          'A recurring window is shown announce_lead_seconds before each run: give that instead of announce_from.',
        );
      return;
    }
    if (body.announce_lead_seconds !== undefined)
      issue(
        'announce_lead_seconds',
        'announce_lead_seconds is for recurring windows: a one-off window takes announce_from.',
      );
    if (body.starts_at === undefined)
      issue('starts_at', 'This field is required (or give cron and duration_seconds).');
    if (body.ends_at === undefined)
      issue('ends_at', 'This field is required (or give cron and duration_seconds).');
    if (body.starts_at && body.ends_at && Date.parse(body.ends_at) <= Date.parse(body.starts_at))
      issue('ends_at', 'End after the start time.');
    if (body.starts_at && body.announce_from && Date.parse(body.announce_from) > Date.parse(body.starts_at))
      issue('announce_from', 'Announce the window at or before its start time (starts_at).');
  });
documentedAs(windowBody, documentedWindow);
export type WindowBody = z.output<typeof windowBody>;
