import type { Principal } from '../../domain/principal.ts';
import type { BuiltinDeps } from '../tool-kit/deps.ts';
import type { ViewEntity } from './ui.ts';
import { bannerHtml, entityLine, entityListHtml, viewDocument } from './view-html.ts';

/** Entities a status view shows at most, problems first (the rest are counted). */
const STATUS_VIEW_MAX = 200;

const ORDER = ['down', 'degraded', 'unknown', 'up'] as const;

/** The tenant's status board as a view: counts, and entities problems first. */
export interface StatusView {
  total: number;
  up: number;
  degraded: number;
  down: number;
  unknown: number;
  entities: ViewEntity[];
  generated_at: string;
}

/** Reads the caller's board: the counts, then each state's entities (down first) up to STATUS_VIEW_MAX. */
export async function readStatusView(
  deps: Pick<BuiltinDeps, 'status' | 'clock'>,
  caller: Principal,
): Promise<StatusView> {
  const first = await deps.status.board(caller.tenantId, { limit: 1 });
  const entities: ViewEntity[] = [];
  for (const state of ORDER) {
    let cursor: string | undefined;
    while (first[state] > 0 && entities.length < STATUS_VIEW_MAX) {
      const page = await deps.status.board(caller.tenantId, {
        state,
        limit: STATUS_VIEW_MAX - entities.length,
        ...(cursor ? { cursor } : {}),
      });
      for (const { name, blueprint_slug, slug, state: s, in_maintenance } of page.entities)
        entities.push({ name, blueprint_slug, slug, state: s, in_maintenance });
      cursor = page.next_cursor ?? undefined;
      if (!cursor) break;
    }
  }
  const { total, up, degraded, down, unknown } = first;
  return {
    total,
    up,
    degraded,
    down,
    unknown,
    entities,
    generated_at: new Date(deps.clock.now()).toISOString(),
  };
}

const worstOf = (v: StatusView): ViewEntity['state'] =>
  v.down > 0 ? 'down' : v.degraded > 0 ? 'degraded' : v.up > 0 ? 'up' : 'unknown';

/** The counts in one sentence. */
const countsSentence = (v: StatusView) =>
  `${v.total} entities: ${v.up} up, ${v.degraded} degraded, ${v.down} down, ${v.unknown} unknown.`;

const shownNote = (v: StatusView) =>
  v.entities.length < v.total ? `Showing ${v.entities.length} of ${v.total}, problems first.` : '';

/** The view as HTML (ui://vigil/status). */
export function statusViewHtml(view: StatusView): string {
  const note = shownNote(view);
  return viewDocument(
    'Status',
    [
      bannerHtml(worstOf(view), countsSentence(view)),
      '<h2>Services</h2>',
      entityListHtml(view.entities, 'Nothing is monitored yet.'),
      note ? `<p class="meta">${note}</p>` : '',
    ].join(''),
    view.generated_at,
  );
}

/** The view as text: what a host without MCP Apps shows. */
export function statusViewText(view: StatusView): string {
  const note = shownNote(view);
  return [countsSentence(view), ...view.entities.map(entityLine), ...(note ? [note] : [])].join('\n');
}
