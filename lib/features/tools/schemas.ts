import { entityNaming } from '../../catalog/entities.ts';
import { PUSH_MAX_INTERVAL_SECONDS } from '../../check-types/check-config.ts';
import { CREATABLE_CHECK_TYPES } from '../../check-types/registry.ts';
import { MAX_CHECK_LOCATIONS } from '../../domain/states.ts';
import { cursor, pageLimit } from '../../platform/mcp-tool.ts';

/** The input-schema pieces the checks' and push checks' tools share. */

/** explain_alerting: exactly one of check_id and entity_id, and the state to simulate. */
export const explainAlertingInput = {
  type: 'object',
  properties: {
    check_id: {
      type: 'string',
      description: 'The check whose failure (or recovery) moves its entity (chk_…); or entity_id',
    },
    ...entityNaming('The entity, each of its enabled checks simulated; or check_id instead'),
    to_state: {
      type: 'string',
      enum: ['up', 'down', 'degraded'],
      description: 'The state the entity would change to now',
    },
  },
  required: ['to_state'],
  additionalProperties: false,
};

/** get_check_results: the check, the window and a page of its results. */
export const checkResultsInput = {
  type: 'object',
  properties: {
    check_id: { type: 'string', description: 'The check (chk_…)' },
    hours: { type: 'integer', minimum: 1, maximum: 168, default: 1, description: 'How far back to look' },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: 500,
      default: 50,
      description: 'At most this many results (fewer when the answer would pass 50 KB)',
    },
    cursor,
  },
  required: ['check_id'],
  additionalProperties: false,
};

/**
 * create_check: an http check's target_url, or another type's config (the API's POST /v1/checks
 * rules, checked by the tool); the types are the check-types registry's.
 */
/** run_check: one check by id. */
export const checkRef = {
  type: 'object',
  properties: { check_id: { type: 'string', description: 'The check (chk_…)' } },
  required: ['check_id'],
  additionalProperties: false,
};

export const createCheckInput = {
  type: 'object',
  properties: {
    ...entityNaming('The entity to attach the check to'),
    check_type: {
      type: 'string',
      enum: [...CREATABLE_CHECK_TYPES],
      default: 'http',
      description: 'What the check probes (push: the service reports, nothing is probed)',
    },
    target_url: {
      type: 'string',
      maxLength: 2048,
      description: 'http checks only (required there): the http or https URL to probe',
    },
    config: {
      type: 'object',
      description:
        'Other types only: the type\'s config as POST /v1/checks takes it (docs/api.md), e.g. tcp {"host": "db.internal", "port": 5432}',
    },
    name: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'What people call the check; without it a name is derived, e.g. "HTTP GET <host>/<path>"',
    },
    interval_seconds: {
      type: 'integer',
      minimum: 1,
      maximum: PUSH_MAX_INTERVAL_SECONDS,
      // No schema default: the API's default depends on the type (60 s; an hour for domain checks).
      description:
        'Seconds between probes (up to a day) or reports (push, up to 30 days); at least the plan minimum. Default 60 (3,600 for domain checks, whose RDAP servers limit how often they are asked)',
    },
    failure_threshold: {
      type: 'integer',
      minimum: 1,
      maximum: 100,
      // No schema default: it depends on the type (3; 1 for push checks).
      description:
        'Consecutive failures before the check is down. Default 3; 1 for push checks (a heartbeat is down on its first failure or missed report)',
    },
    locations: {
      type: 'array',
      items: { type: 'string' },
      minItems: 1,
      maxItems: MAX_CHECK_LOCATIONS,
      uniqueItems: true,
      description:
        'Where it probes from: location names (default ["default"], the runtime itself; others: GET /v1/locations). Push checks: only ["default"]',
    },
    quorum: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_CHECK_LOCATIONS,
      description:
        'How many locations must report failure for a slot to fail; default 1 with one location, a majority with several',
    },
    dry_run: {
      type: 'boolean',
      default: false,
      description: 'true: create nothing (a probed type is still probed once)',
    },
  },
  additionalProperties: false,
};

/** list_heartbeats: a page of the push checks, optionally of one status. */
export const listHeartbeatsInput = {
  type: 'object',
  properties: {
    status: {
      type: 'string',
      enum: ['failing', 'late', 'started', 'never_pinged', 'up', 'paused'],
      description:
        'Only heartbeats in this status: failing (down), late (past the expected time, inside the grace), started (a run in progress), never_pinged, up, paused (disabled)',
    },
    limit: pageLimit(50, 100),
    cursor,
  },
  additionalProperties: false,
};

/** get_ping_log and get_check_runs: a page of one push check's pings, or of its runs. */
export const pushCheckPageInput = {
  type: 'object',
  properties: {
    check_id: { type: 'string', description: 'The push check (chk_…)' },
    limit: pageLimit(20, 100),
    cursor,
  },
  required: ['check_id'],
  additionalProperties: false,
};
