/** The OpenAPI 3.1 description of Management API v3 (`/api/v3/openapi.json`); test/server/openapi/ checks it. */
import { paths, parameters, responses } from './paths.js';
import { schemas, type Json } from './schemas.js';
import { maintenanceParameters, maintenancePaths, maintenanceSchemas } from './maintenance.js';

/** The description, whose server is `<baseUrl>/api/v3` (config `baseUrl`). */
export function openApiDocument(baseUrl: string): { [key: string]: Json } {
  return {
    openapi: '3.1.0',
    info: {
      title: 'hc-monitor Management API',
      version: '3',
      description:
        'Healthchecks-compatible Management API v3. Every endpoint answers OPTIONS with 204 and CORS headers, ' +
        'and a method it does not list with 405 and an empty body. Collection paths end in `/`.',
    },
    servers: [{ url: `${baseUrl}/api/v3` }],
    security: [{ apiKey: [] }],
    paths: { ...paths, ...maintenancePaths },
    components: {
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Api-Key',
          description: 'A project API key (32 characters). Read-only keys work where an operation says so; POST bodies may carry it as `api_key`.',
        },
      },
      schemas: { ...schemas, ...maintenanceSchemas },
      parameters: { ...parameters, ...maintenanceParameters },
      responses,
    },
  };
}
