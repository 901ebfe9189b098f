import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

/** Small statistics helpers shared by the benchmark's processes. */

export interface Percentiles {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Collects numeric samples (bounded: past `cap` samples, later ones replace random earlier ones). */
export function createSamples(cap = 1_000_000) {
  let values: number[] = [];
  let seen = 0;
  return {
    add(value: number): void {
      seen += 1;
      if (values.length < cap) values.push(value);
      else {
        // Reservoir sampling keeps the percentiles unbiased once the cap is reached.
        const slot = Math.floor(Math.random() * seen);
        if (slot < cap) values[slot] = value;
      }
    },
    reset(): void {
      values = [];
      seen = 0;
    },
    get count(): number {
      return seen;
    },
    summary(): Percentiles {
      return percentiles(values, seen);
    },
  };
}

/** Nearest-rank percentiles of `values` (`count` overrides the reported sample count). */
export function percentiles(values: number[], count = values.length): Percentiles {
  const sorted = Float64Array.from(values).sort();
  const at = (q: number) => {
    if (sorted.length === 0) return 0;
    const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
    return sorted[index] ?? 0;
  };
  return { count, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: at(1) };
}

export interface LoopHealth {
  /** Event-loop delay in ms (perf_hooks histogram). */
  delayP50Ms: number;
  delayP99Ms: number;
  delayMaxMs: number;
  /** Share of wall time the loop was busy, 0..1. */
  utilization: number;
  /** CPU time (user + system) per wall second, in cores. */
  cpuCores: number;
  rssMaxMb: number;
  rssEndMb: number;
}

/** Watches this process's event loop, CPU and RSS from `reset()` to `read()`. */
export function createLoopMonitor() {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let elu = performance.eventLoopUtilization();
  let cpu = process.cpuUsage();
  let wallStart = performance.now();
  let rssMax = 0;
  const sampleRss = () => {
    rssMax = Math.max(rssMax, process.memoryUsage.rss());
  };
  const timer = setInterval(sampleRss, 250);
  timer.unref();
  const reset = () => {
    delay.reset();
    elu = performance.eventLoopUtilization();
    cpu = process.cpuUsage();
    wallStart = performance.now();
    rssMax = 0;
    sampleRss();
  };
  return {
    reset,
    read(): LoopHealth {
      sampleRss();
      const used = process.cpuUsage(cpu);
      const wallMs = performance.now() - wallStart;
      const rss = process.memoryUsage.rss();
      return {
        delayP50Ms: delay.percentile(50) / 1e6,
        delayP99Ms: delay.percentile(99) / 1e6,
        delayMaxMs: delay.max / 1e6,
        utilization: performance.eventLoopUtilization(elu).utilization,
        cpuCores: (used.user + used.system) / 1000 / Math.max(1, wallMs),
        rssMaxMb: toMb(rssMax),
        rssEndMb: toMb(rss),
      };
    },
    stop(): void {
      clearInterval(timer);
      delay.disable();
    },
  };
}

function toMb(bytes: number): number {
  return Math.round((bytes / 1024 / 1024) * 10) / 10;
}

/** Rounds for display and JSON (figures, not noise). */
export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
