import { describe, expect, it } from 'vitest';
import { readThreadCpu, statCpuSeconds, threadCores, threadGroup } from '../../bench/threads.ts';

describe('benchmark thread split', () => {
  it('reads user and system time from a stat line, whatever the thread name holds', () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
    const line = '4242 (vigil (probe) 1) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 9 0';
    expect(statCpuSeconds(line)).toBeCloseTo(3.25);
  });

  it('groups threads by role', () => {
    expect(threadGroup(10, 10, 'node')).toBe('event loop');
    expect(threadGroup(11, 10, 'vigil-writer')).toBe('writer');
    expect(threadGroup(12, 10, 'vigil-probe-2')).toBe('probe threads');
    expect(threadGroup(13, 10, 'vigil-checkpt')).toBe('checkpointer');
    expect(threadGroup(14, 10, 'node')).toBe('helpers');
  });

  it("counts this process's own CPU on its event loop", () => {
    const before = readThreadCpu();
    const cpu = process.cpuUsage();
    // Spin until the process has used 200 ms of CPU (at most 5 s, however busy the machine is).
    const deadline = Date.now() + 5000;
    while (process.cpuUsage(cpu).user < 200_000 && Date.now() < deadline) {
      // busy
    }
    const used = process.cpuUsage(cpu);
    const seconds = threadCores(before, readThreadCpu(), 1000)['event loop'];
    expect(used.user).toBeGreaterThanOrEqual(200_000);
    // /proc counts in 10 ms ticks: the event loop holds (nearly) all of the process's CPU here.
    expect(seconds).toBeGreaterThan(0.15);
    expect(seconds).toBeLessThanOrEqual((used.user + used.system) / 1e6 + 0.05);
  });
});
