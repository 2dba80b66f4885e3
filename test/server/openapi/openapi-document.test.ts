import { expect } from 'chai';
import type { Express } from 'express';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createApp } from '../../../server/app.js';
import { http } from '../../helpers/factories.js';
import { testContext } from '../../helpers/hooks.js';
import { BASE_URL } from '../routes/support.js';

const API = '/api/v3';
const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];

interface Layer {
  rawPath?: string | string[];
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
}

/** `METHOD path` of every route the app serves, found by walking Express's router stack. */
function servedRoutes(stack: Layer[], prefix = ''): string[] {
  return stack.flatMap((layer) => {
    const paths = [layer.route?.path ?? layer.rawPath ?? '/'].flat().map((path) => `${prefix}${path === '/' ? '' : path}`);
    if (layer.route) {
      const methods = Object.keys(layer.route.methods).filter((method) => HTTP_METHODS.includes(method));
      return paths.flatMap((path) => methods.map((method) => `${method.toUpperCase()} ${path}`));
    }
    return layer.handle.stack ? paths.flatMap((path) => servedRoutes(layer.handle.stack!, path)) : [];
  });
}

/** Parameters written as `{}` so `:code` and `{uuid}` compare equal. */
const shape = (route: string): string => route.replace(/:[A-Za-z_]+|\{[A-Za-z_]+\}/g, '{}');

describe('GET /api/v3/openapi.json', () => {
  it('serves an OpenAPI 3.1 document that validates against the OpenAPI 3.1 schema, without a key', async () => {
    const res = await http().get(`${API}/openapi.json`);
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^application\/json/);
    const result = await new Validator().validate(res.body);
    expect(result.errors, JSON.stringify(result.errors)).to.equal(undefined);
    expect([result.valid, res.body.openapi, res.body.servers]).to.deep.equal([true, '3.1.0', [{ url: `${BASE_URL}/api/v3` }]]);
  });

  it('describes every route the app serves under /api/v3/, and nothing else', async () => {
    const { body: doc } = await http().get(`${API}/openapi.json`);
    const { redis, queues } = testContext();
    const app = createApp({ clock: () => new Date(), redis, queues }) as Express & { router: { stack: Layer[] } };
    const served = servedRoutes(app.router.stack).filter((route) => route.split(' ')[1].startsWith(`${API}/`));
    const described = Object.entries(doc.paths as Record<string, object>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${API}${path}`),
    );
    expect(served.length).to.be.greaterThan(10);
    expect([...new Set(served.map(shape))].sort()).to.deep.equal([...new Set(described.map(shape))].sort());
  });

  it('answers OPTIONS with 204 and CORS headers, as other endpoints do', async () => {
    const res = await http().options(`${API}/openapi.json`);
    expect(res.status).to.equal(204);
    expect(res.headers['access-control-allow-methods']).to.equal('GET, OPTIONS');
  });
});
