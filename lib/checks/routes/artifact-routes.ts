import * as z from 'zod';
import type { TenantStore } from '../../auth/tenants.ts';
import { defineRoute } from '../../http/define-route.ts';
import { idSchema } from '../../http/route-schemas.ts';
import type { AuthedRoute } from '../../http/types.ts';
import type { Clock } from '../../platform/clock.ts';
import { NotFoundError } from '../../platform/errors.ts';
import {
  ARTIFACT_NAME,
  type ArtifactStore,
  artifactKey,
  resultTimeMs,
  SCREENSHOT_TYPE,
  TRACE_NAME,
  TRACE_TYPE,
} from '../artifacts/artifact-store.ts';
import type { CheckService } from '../services/check-service.ts';

export interface ArtifactRouteDeps {
  checkService: Pick<CheckService, 'requireCheck'>;
  tenants: Pick<TenantStore, 'requireTenant'>;
  clock: Clock;
  /** The runtime's artifact store; absent: no artifact is kept, every read is a 404. */
  artifacts?: ArtifactStore | undefined;
}

const params = z.object({
  id: idSchema('chk'),
  result_id: idSchema('res'),
  name: z.string().regex(ARTIFACT_NAME, 'expected an artifact name such as step-3.jpg or trace.zip').meta({
    description: "An artifact's name, as the result's details.artifacts list it (step-<n>.jpg, trace.zip)",
  }),
});

/** Private to the caller's browser, which may keep it: an artifact never changes once stored. */
const KEPT = { 'cache-control': 'private, max-age=3600', 'x-content-type-options': 'nosniff' };

/** A screenshot is shown; a trace is downloaded (Playwright's trace viewer opens the file). */
const headersOf = (name: string): Record<string, string> =>
  name === TRACE_NAME
    ? { ...KEPT, 'content-type': TRACE_TYPE, 'content-disposition': `attachment; filename="${TRACE_NAME}"` }
    : { ...KEPT, 'content-type': SCREENSHOT_TYPE };

/**
 * GET /v1/checks/{id}/results/{result_id}/artifacts/{name}: one stored artifact of a result (a
 * browser check's screenshot or trace), read with the tenant's key (read-only keys too). The check must be
 * the caller's and the key is built from the caller's tenant, so another tenant's artifact is a
 * 404; so is one whose result is past the tenant's retention (the result is gone, even while its
 * file or object waits for the sweep or the bucket's lifecycle rule).
 */
export function artifactRoutes(deps: ArtifactRouteDeps): AuthedRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/checks/{id}/results/{result_id}/artifacts/{name}',
      auth: 'key',
      operationId: 'getCheckResultArtifact',
      tag: 'Checks',
      summary:
        "One artifact of a result (a browser check's screenshot, image/jpeg, or its Playwright trace, application/zip, as an attachment), as its details.artifacts name it; kept for the retention period",
      schemas: {
        params,
        responses: {
          200: { contentType: SCREENSHOT_TYPE, schema: z.string(), also: { [TRACE_TYPE]: z.string() } },
        },
      },
      handler: async ({ principal, params: p }) => {
        const tenantId = principal.tenantId;
        await deps.checkService.requireCheck(tenantId, p.id);
        const tenant = await deps.tenants.requireTenant(tenantId);
        const at = resultTimeMs(p.result_id) ?? 0;
        if (!deps.artifacts || at < deps.clock.now() - tenant.retention_days * 86_400_000)
          throw new NotFoundError('artifact');
        const bytes = await deps.artifacts.get(
          artifactKey({ tenantId, checkId: p.id, resultId: p.result_id }, p.name),
        );
        if (!bytes) throw new NotFoundError('artifact');
        return new Response(new Uint8Array(bytes), { status: 200, headers: headersOf(p.name) });
      },
    }),
  ];
}
