import * as z from 'zod';
import { DEFAULT_PAGE_SIZE } from '../../store/paging.ts';
import { queryInteger } from '../route-schemas.ts';

/** The `limit` and `cursor` query parameters of a paged list whose limit is at most `max`. */
export function pageQuery(max: number, byDefault = DEFAULT_PAGE_SIZE) {
  return z.object({
    limit: queryInteger(1, max)
      .default(byDefault)
      .meta({ description: `Page size: an integer from 1 to ${max}; default ${byDefault}` }),
    cursor: z
      .string()
      .min(1)
      .max(2048)
      .optional()
      .meta({ description: 'The next_cursor of the previous page' }),
  });
}
