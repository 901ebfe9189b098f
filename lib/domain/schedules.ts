/**
 * When things are due (its front door; the files in schedules/ are private): cron expressions, a
 * push check's heartbeat deadlines and missed runs, pull checks' slots and shards, a cell's slots,
 * and an on-call rota's shape (who is on call is computed by lib/oncall).
 */

export { CELL_SIZE, cellSlotsBetween, nextCellSlot } from './schedules/cell-slots.ts';
export { cronProblem, isTimeZone, pausedCron } from './schedules/cron.ts';
export {
  deadlineAfterMissMs,
  type HeartbeatCheck,
  type HeartbeatState,
  heartbeatGraceMs,
  nextExpectedMs,
  pushDeadline,
  runAllowanceMs,
  scheduleIntervalSeconds,
  scheduleOffset,
} from './schedules/heartbeat.ts';
export { armedDeadlineMs, type MissedRun, missedRun } from './schedules/heartbeat-miss.ts';
export {
  type Layer,
  layerInputSchema,
  type Override,
  overrideInputSchema,
  type Restriction,
  type Rota,
  type Rotation,
  rotaSchema,
  SCHEDULE_LIMITS,
  timeZoneSchema,
  WEEKDAYS,
} from './schedules/rota.ts';
export { DUE_SUB_KEYS, dueSubKeyOf, nextSlot, scheduledRunAt, shardOf } from './schedules/schedule.ts';
