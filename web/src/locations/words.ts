import type { Schemas } from '../api/client';

type Location = Schemas['Location'];

/** How each kind of location reads in tables and pickers. */
export const KIND_WORDS: Record<Location['kind'], string> = {
  runtime: 'this runtime',
  agent: 'private agent',
  aws_region: 'AWS region',
};
