/**
 * A check policy's repeat bounds (SPEC.md): 0 (no repeat), else a minute to a day, so a flapping
 * check cannot page every second. The policy's request schema (lib/notify) and the importers (an
 * Uptime Kuma monitor's resend interval) read them.
 */
export const MIN_REPEAT_SECONDS = 60;
export const MAX_REPEAT_SECONDS = 86_400;
