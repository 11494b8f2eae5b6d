/**
 * The OpenAPI 3.1 document served at `/api/v1/openapi.json` (docs/api.md, "Meta"), generated from the route
 * registry (api-spec/routes.ts): request and response schemas are the zod schemas the routes use.
 */
import { buildOpenApi } from './api-spec/registry.js';
import { errorSchema } from './api-spec/response-schemas.js';
import { ROUTES } from './api-spec/routes.js';

/** The API's base path: every route but the well-known keys is under it. */
export const API_BASE_PATH = '/api/v1';

/** The OpenAPI 3.1 document (a fresh object each call). */
export function openApiDocument(): Record<string, unknown> {
  return buildOpenApi(ROUTES, {
    basePath: API_BASE_PATH,
    info: {
      title: 'Saksi API',
      version: '1',
      description:
        'Answers from official documents, each with a proof anyone can check. Errors are JSON `{"error": {"code", "message"}}` with the HTTP status. ' +
        'Authenticate with `Authorization: Bearer saksi_…` (or `X-API-Key`); a key belongs to one workspace and carries scopes `read`, `ingest`, `admin`.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    schemas: [errorSchema],
  });
}
