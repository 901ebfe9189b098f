/**
 * When things are due (its front door; the files in schedules/ are private): cron expressions, a
 * push check's heartbeat deadlines and missed runs, pull checks' slots and shards, a cell's slots.
 */

export { CELL_SIZE, cellSlotsBetween, nextCellSlot } from './schedules/cell-slots.ts';
export { cronProblem, isTimeZone, pausedCron } from './schedules/cron.ts';
export {
  deadlineAfterMissMs,
  heartbeatGraceMs,
  nextExpectedMs,
  pushDeadline,
  scheduleIntervalSeconds,
} from './schedules/heartbeat.ts';
export { armedDeadlineMs, missedRun } from './schedules/heartbeat-miss.ts';
export { nextSlot, scheduledRunAt, shardOf } from './schedules/schedule.ts';
