import type { Principal } from '../../domain/principal.ts';
import { walk } from '../../status/board-reads.ts';
import { escapeHtml } from '../../status-pages/status-pages.ts';
import type { BuiltinDeps } from '../tool-kit/deps.ts';
import type { ViewEntity } from './ui.ts';
import { bannerHtml, entityLine, entityListHtml, viewDocument } from './view-html.ts';

/** Bounds of a blast-radius view: dependents drawn per entity, and entities not up drawn in the whole view. */
const BLAST_VIEW_LIMITS = { rows: 200, roots: 10 } as const;

type Deps = Pick<BuiltinDeps, 'status' | 'relations' | 'clock'>;

/** One entity's blast radius: what depends on it (directly or transitively), nearest first. */
export interface BlastRadius {
  entity: ViewEntity & { id: string };
  dependents: (ViewEntity & { depth: number })[];
  truncated: boolean;
}

/** The blast radius of `entity` (an entity of the caller's tenant). */
export async function readBlastRadius(
  deps: Deps,
  caller: Principal,
  entity: BlastRadius['entity'],
): Promise<BlastRadius> {
  const { reached, truncated } = await walk(deps, caller.tenantId, entity.id, false);
  return { entity, dependents: reached, truncated };
}

/** The blast radii of the entities down or degraded now (down first), at most BLAST_VIEW_LIMITS.roots. */
export async function readProblemRadii(deps: Deps, caller: Principal): Promise<BlastRadius[]> {
  const roots: BlastRadius['entity'][] = [];
  for (const state of ['down', 'degraded'] as const) {
    if (roots.length === BLAST_VIEW_LIMITS.roots) break;
    const page = await deps.status.board(caller.tenantId, {
      state,
      limit: BLAST_VIEW_LIMITS.roots - roots.length,
    });
    for (const { id, name, blueprint_slug, slug, in_maintenance } of page.entities)
      roots.push({ id, name, blueprint_slug, slug, state, in_maintenance });
  }
  return Promise.all(roots.map((root) => readBlastRadius(deps, caller, root)));
}

const address = (e: ViewEntity) => `${e.name} (${e.blueprint_slug}/${e.slug})`;

/** One radius in one sentence. */
function radiusSentence(r: BlastRadius): string {
  const notUp = r.dependents.filter((d) => d.state !== 'up').length;
  if (r.dependents.length === 0)
    return `Nothing depends on ${address(r.entity)}, which is ${r.entity.state}.`;
  return (
    `${r.dependents.length}${r.truncated ? '+' : ''} entities depend on ${address(r.entity)}, which is ` +
    `${r.entity.state}, directly or transitively; ${notUp} of them are not up.`
  );
}

const distance = (depth: number) => (depth === 1 ? 'Directly' : `${depth} steps away`);

/** One radius as HTML: a banner and a list per distance (no graph), at most BLAST_VIEW_LIMITS.rows rows. */
function radiusHtml(r: BlastRadius, heading: 'h2' | 'h3'): string {
  const shown = r.dependents.slice(0, BLAST_VIEW_LIMITS.rows);
  const depths = [...new Set(shown.map((d) => d.depth))];
  const more = r.dependents.length - shown.length;
  return [
    bannerHtml(r.entity.state, radiusSentence(r)),
    ...depths.map(
      (depth) =>
        `<${heading}>${distance(depth)}</${heading}>${entityListHtml(
          shown.filter((d) => d.depth === depth),
          '',
        )}`,
    ),
    more > 0 || r.truncated
      ? `<p class="meta">${more > 0 ? `${more} more not shown.` : ''} The walk stops at 1000 entities.</p>`
      : '',
  ].join('');
}

/** The view of one entity's blast radius (ui://vigil/blast-radius/{blueprint}/{slug}). */
export function blastRadiusHtml(r: BlastRadius, generatedAt: string): string {
  return viewDocument(`Blast radius of ${r.entity.name}`, radiusHtml(r, 'h2'), generatedAt);
}

/** The view of what today's problems reach (ui://vigil/blast-radius): each entity not up, its dependents. */
export function problemRadiiHtml(radii: readonly BlastRadius[], generatedAt: string): string {
  const body =
    radii.length === 0
      ? bannerHtml('up', 'No entity is down or degraded: no problem reaches anything.')
      : radii.map((r) => `<h2>${escapeHtml(address(r.entity))}</h2>${radiusHtml(r, 'h3')}`).join('');
  return viewDocument('Blast radius of current problems', body, generatedAt);
}

/** One radius as text: what a host without MCP Apps shows. */
export function radiusText(r: BlastRadius): string {
  const shown = r.dependents.slice(0, BLAST_VIEW_LIMITS.rows);
  const more = r.dependents.length - shown.length;
  return [
    radiusSentence(r),
    ...shown.map((d) => `${entityLine(d)} (${distance(d.depth).toLowerCase()})`),
    ...(more > 0 ? [`${more} more not shown.`] : []),
  ].join('\n');
}
