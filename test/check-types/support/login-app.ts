import { afterAll, beforeAll } from 'vitest';
import { newEntity } from '../../checks/check-fixtures.ts';
import type { ApiHarness } from '../../support/api-harness.ts';
import { type LoginApi, startLoginApi } from './login-api.ts';

/** What a describe block's tests share: the login API, the app and one entity of it. */
export interface LoginApp {
  api: ApiHarness;
  server: LoginApi;
  entityId: string;
}

/**
 * A login API on 127.0.0.1 and the app started by `start` (private targets allowed, so its checks
 * may probe the API) with one entity, made before the block's tests and closed after them.
 */
export function useLoginApp(
  start: (options: { env: Record<string, string> }) => Promise<ApiHarness>,
): LoginApp {
  const app = {} as LoginApp;
  beforeAll(async () => {
    app.server = await startLoginApi();
    app.api = await start({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
    app.entityId = await newEntity(app.api);
  }, 60_000);
  afterAll(async () => {
    await app.api?.close();
    await app.server?.close();
  });
  return app;
}
