import { handoverJobSchema } from '../oncall/handover-jobs.ts';
import { defineFeature, jobsOf } from '../platform/feature.ts';

/**
 * Handover summaries' face in the feature list (issue 55 item 6): a schedule's `handover` jobs on
 * the notify queue, its next handoff waited for in hops and told to the outgoing and incoming
 * people by their first contact method (lib/oncall/handover-jobs.ts chains them; job-host.ts runs them).
 */
export const handoverFeature = defineFeature({
  name: 'handover',
  jobs: jobsOf('notify', [handoverJobSchema]),
});
