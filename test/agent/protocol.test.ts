import { describe, expect, it } from 'vitest';
import { MAX_ERROR_MESSAGE, probeResultSchema, toWireResult } from '../../lib/agent/probe-result.ts';
import {
  leaseAnswerSchema,
  leaseRequestSchema,
  readLeaseAnswer,
  resultsRequestSchema,
} from '../../lib/agent/protocol.ts';
import { probeDefinition } from '../../lib/checks/probe-job.ts';

const SLOT = Date.parse('2026-11-24T12:00:00.000Z');

describe('the agent protocol', () => {
  it('carries as a leased check what probeDefinition builds for the workers, for http and configured types', () => {
    const http = probeDefinition({
      check_type: 'http',
      config: {},
      target_url: 'https://api.example.com/health',
      method: 'POST',
      headers: { authorization: 'Bearer secret' },
      body: '{}',
      expected_status: 201,
      body_contains: 'ok',
      assertions: [{ source: 'json', path: '.status', op: 'eq', value: 'ok' }],
      timeout_ms: 5000,
      degraded_latency_ms: 800,
      tls: { skip_verify: true },
    });
    const tcp = probeDefinition({
      check_type: 'tcp',
      config: { host: 'db.internal', port: 5432 },
      target_url: null,
      method: 'GET',
      headers: {},
      body: null,
      expected_status: 200,
      body_contains: '',
      timeout_ms: 3000,
      degraded_latency_ms: null,
    });

    const answer = {
      jobs: [
        { job_id: 'j1', slot: SLOT, check: http },
        { job_id: 'j2', slot: SLOT, check: tcp },
      ],
    };

    expect(leaseAnswerSchema.safeParse(answer).success).toBe(true);
    expect(readLeaseAnswer(answer)).toEqual([
      { job_id: 'j1', slot: SLOT, check: http },
      { job_id: 'j2', slot: SLOT, check: tcp },
    ]);
  });

  it('reads a job it cannot probe as that job’s problem, not the whole answer’s', () => {
    const jobs = readLeaseAnswer({
      jobs: [
        { job_id: 'a', slot: SLOT, check: { check_type: 'ftp', timeout_ms: 1000 } },
        { job_id: 'b', slot: SLOT, check: { check_type: 'tcp', timeout_ms: 1000, host: 'db' } },
        { job_id: 'c', slot: SLOT, check: { check_type: 'tcp', timeout_ms: 1000, host: 'db', port: 5432 } },
      ],
    });

    expect(jobs[0]).toEqual({ job_id: 'a', slot: SLOT, problem: 'this agent cannot probe ftp checks' });
    expect(jobs[1]).toMatchObject({
      job_id: 'b',
      problem: expect.stringMatching(/^this agent cannot read the check at port/),
    });
    expect(jobs[2]).toMatchObject({ job_id: 'c', check: { host: 'db', port: 5432 } });
    expect(() => readLeaseAnswer({ jobs: [{ slot: SLOT, check: {} }] })).toThrow();
  });

  it('bounds leases and result batches', () => {
    expect(leaseRequestSchema.safeParse({ max: 10, wait_seconds: 20 }).success).toBe(true);
    expect(leaseRequestSchema.safeParse({ max: 10, wait_seconds: 21 }).success).toBe(false);
    expect(leaseRequestSchema.safeParse({ max: 0, wait_seconds: 1 }).success).toBe(false);
    expect(leaseRequestSchema.safeParse({ max: 101, wait_seconds: 1 }).success).toBe(false);
    expect(resultsRequestSchema.safeParse([]).success).toBe(false);
  });

  it('turns a probe outcome into the result the recorder takes, texts cut to the bounds', () => {
    const result = toWireResult({
      outcome: {
        success: true,
        degraded: true,
        status_code: 0,
        latency_ms: 12.6,
        error_message: 'x'.repeat(5000),
        details: { answers: Array.from({ length: 150 }, () => 'a'.repeat(2000)), days_left: 3 },
      },
      startedMs: SLOT,
    });

    expect(probeResultSchema.safeParse(result).success).toBe(true);
    expect(result).toMatchObject({
      success: true,
      degraded: true,
      latency_ms: 13,
      checked_at: '2026-11-24T12:00:00.000Z',
    });
    expect(result.error_message).toHaveLength(MAX_ERROR_MESSAGE);
    expect(result.details?.answers).toHaveLength(100);
    expect(result.details?.days_left).toBe(3);
  });
});
