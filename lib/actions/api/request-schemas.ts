import * as z from 'zod';
import { RESERVED_NAMES } from '../../domain/catalog.ts';
import { TEMPLATED_URL_PATTERN } from '../../domain/formats.ts';
import { pageQuery } from '../../http/requests.ts';
import { idSchema, namesResource } from '../../http/route-schemas.ts';
import { ACTION_LIMITS, ACTION_METHODS, TRIGGER_STATES, TRIGGER_TYPES } from '../items/action-items.ts';
import { PIPELINE_STATUSES } from '../items/execution-items.ts';

/** Request shapes of the action routes (SPEC.md "Action", "Limits"; DECISIONS.md "Actions"). */

/** Bounds of pipeline_timeout_seconds: a minute to a day. */
const PIPELINE_TIMEOUT_BOUNDS = { min: 60, max: 86_400 } as const;
/** The longest schedule interval: a week. */
const MAX_INTERVAL_SECONDS = 604_800;
const MAX_URL_LENGTH = 2048;
const MAX_NAME_LENGTH = 200;
const MAX_HEADER_VALUE_LENGTH = 8192;

/** An HTTP header name: an RFC 9110 token. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A header value: no CR, LF or NUL, so a value can never add a header or a request line. */
const HEADER_VALUE = /^[^\r\n\0]*$/;

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

const actionIdSchema = namesResource(idSchema('act'), 'action');
const executionIdSchema = namesResource(idSchema('exe'), 'execution');
export const actionParams = z.object({ id: actionIdSchema });
export const executionParams = z.object({ exec_id: executionIdSchema });

const headersSchema = z
  .record(
    z
      .string()
      .regex(HEADER_NAME, 'Enter an HTTP header name (a token), such as X-Request-Id.')
      .refine((name) => !RESERVED_NAMES.has(name), 'Choose another header name: this one is reserved.')
      .meta({ not: { enum: [...RESERVED_NAMES] } }),
    z
      .string()
      .max(MAX_HEADER_VALUE_LENGTH)
      .regex(HEADER_VALUE, 'Leave out line breaks (CR, LF) and NUL characters.'),
  )
  .refine((headers) => Object.keys(headers).length <= ACTION_LIMITS.headers, {
    message: `Use at most ${ACTION_LIMITS.headers} headers.`,
  })
  .meta({
    maxProperties: ACTION_LIMITS.headers,
    description: `Sent with every request; at most ${ACTION_LIMITS.headers}. Values read ******** in responses; on PUT a value of ******** keeps the stored one`,
  });

/** The fields of an action as a request names them; create applies defaults, PUT keeps absent ones. */
const fields = {
  name: z
    .string()
    .regex(/\S/, 'This field is required.')
    .trim()
    .min(1)
    .max(MAX_NAME_LENGTH)
    .meta({ description: 'Display name' }),
  url: z
    .string()
    .max(MAX_URL_LENGTH)
    .regex(/^https?:\/\/[^\s]+$/i, 'Enter an http:// or https:// URL.')
    .meta({
      pattern: TEMPLATED_URL_PATTERN,
      description:
        'http or https; {{variable}} placeholders allowed. A host without placeholders must resolve to a public address (or one in VIGIL_EGRESS_ALLOW); a host with placeholders is checked at each run',
    }),
  method: z.enum(ACTION_METHODS).meta({ description: 'Default POST' }),
  headers: headersSchema,
  body_template: z
    .string()
    .refine((body) => utf8Bytes(body) <= ACTION_LIMITS.bodyTemplateBytes, {
      message: `Use at most ${ACTION_LIMITS.bodyTemplateBytes} bytes (UTF-8).`,
    })
    .meta({
      maxLength: ACTION_LIMITS.bodyTemplateBytes,
      description: 'With {{variable}} placeholders; at most 16 KB (UTF-8); default empty',
    }),
  trigger_type: z.enum(TRIGGER_TYPES).meta({ description: 'Default manual' }),
  check_id: idSchema('chk')
    .nullable()
    .meta({ description: 'state_change only (required there): a check of the tenant' }),
  trigger_to_state: z
    .union([z.enum(TRIGGER_STATES), z.literal(''), z.null()])
    .transform((state) => (state === '' ? null : state))
    .meta({ description: 'state_change only: fire on this target state; empty or null: any' }),
  interval_seconds: z
    .number()
    .int()
    .min(ACTION_LIMITS.minIntervalSeconds)
    .max(MAX_INTERVAL_SECONDS)
    .nullable()
    .meta({
      description: `schedule only (required there): ${ACTION_LIMITS.minIntervalSeconds} to ${MAX_INTERVAL_SECONDS}`,
    }),
  timeout_ms: z
    .number()
    .int()
    .min(ACTION_LIMITS.timeoutMs.min)
    .max(ACTION_LIMITS.timeoutMs.max)
    .meta({ description: 'Request timeout: 100 to 15000; default 10000' }),
  pipeline_timeout_seconds: z
    .number()
    .int()
    .min(PIPELINE_TIMEOUT_BOUNDS.min)
    .max(PIPELINE_TIMEOUT_BOUNDS.max)
    .meta({
      description:
        'A pipeline status still queued or running (or never reported) this long after dispatch turns failed: 60 to 86400; default 3600',
    }),
};

/** What every trigger type of a new action takes. */
const newAction = {
  name: fields.name,
  url: fields.url,
  method: fields.method.default('POST'),
  headers: headersSchema.default({}),
  body_template: fields.body_template.default(''),
  timeout_ms: fields.timeout_ms.default(ACTION_LIMITS.timeoutMs.default),
  pipeline_timeout_seconds: fields.pipeline_timeout_seconds.default(
    ACTION_LIMITS.pipelineTimeoutSeconds.default,
  ),
};
/** A trigger field another trigger type uses: absent, or null (trigger_to_state also ''). */
const noCheck = z.null({ error: 'only a state_change action has one' }).optional();
const noState = z
  .union([z.literal(''), z.null()], { error: 'only a state_change action has one' })
  .transform(() => null)
  .optional();
const noInterval = z.null({ error: 'only a schedule action has one' }).optional();

/**
 * POST /v1/actions: one shape per trigger_type (absent: manual), so the document says what each
 * takes: state_change a check_id, schedule an interval_seconds, and neither the other's fields.
 */
export const createActionBody = z
  .discriminatedUnion('trigger_type', [
    z.strictObject({
      ...newAction,
      trigger_type: z.literal('manual').optional().meta({ description: 'Default manual' }),
      check_id: noCheck,
      trigger_to_state: noState,
      interval_seconds: noInterval,
    }),
    z.strictObject({
      ...newAction,
      trigger_type: z.literal('state_change'),
      check_id: fields.check_id.unwrap().meta({ description: 'A check of the tenant' }),
      trigger_to_state: fields.trigger_to_state.optional(),
      interval_seconds: noInterval,
    }),
    z.strictObject({
      ...newAction,
      trigger_type: z.literal('schedule'),
      check_id: noCheck,
      trigger_to_state: noState,
      interval_seconds: fields.interval_seconds.unwrap(),
    }),
  ])
  .transform((body) => ({ ...body, trigger_type: body.trigger_type ?? 'manual' }))
  .meta({ id: 'ActionInput' });
export type CreateActionBody = z.output<typeof createActionBody>;

/** PUT /v1/actions/{id}: absent fields keep their value; `headers`, when given, is the whole set. */
export const updateActionBody = z
  .strictObject({
    name: fields.name.optional(),
    url: fields.url.optional(),
    method: fields.method.optional(),
    headers: headersSchema.optional(),
    body_template: fields.body_template.optional(),
    trigger_type: fields.trigger_type.optional(),
    check_id: fields.check_id.optional(),
    trigger_to_state: fields.trigger_to_state.optional(),
    interval_seconds: fields.interval_seconds.optional(),
    timeout_ms: fields.timeout_ms.optional(),
    pipeline_timeout_seconds: fields.pipeline_timeout_seconds.optional(),
  })
  .meta({ id: 'ActionUpdate' });
export type UpdateActionBody = z.output<typeof updateActionBody>;

/** GET /v1/actions/{id}/executions. */
export const executionsQuery = pageQuery(ACTION_LIMITS.executionsPage.max);

const logLine = z
  .string()
  .refine((line) => utf8Bytes(line) <= ACTION_LIMITS.logLineBytes, {
    message: `Use at most ${ACTION_LIMITS.logLineBytes} bytes (UTF-8) per line: lines are never truncated.`,
  })
  // The byte bound, as far as JSON Schema can say it (characters; a character takes 1 to 4 bytes).
  .meta({ maxLength: ACTION_LIMITS.logLineBytes });

/** POST /v1/actions/executions/{exec_id}/events: a status, log lines, or both. */
export const eventsBody = z
  .strictObject({
    status: z.enum(PIPELINE_STATUSES).optional().meta({ description: 'The last write wins' }),
    logs: z
      .array(logLine)
      .max(ACTION_LIMITS.logLinesPerRequest)
      .optional()
      .meta({
        description: `At most ${ACTION_LIMITS.logLinesPerRequest} lines of at most 2 KB each; at most ${ACTION_LIMITS.logLinesPerExecution} per execution (409 LOG_LIMIT, the whole request rejected)`,
      }),
  })
  .refine((body) => body.status !== undefined || body.logs !== undefined, {
    message: 'give status, logs or both',
  })
  // Of its two fields at least one: what the refine above says, as the document can say it.
  .meta({ id: 'ExecutionEvents', minProperties: 1 });
export type EventsBody = z.output<typeof eventsBody>;
