/** The docs served by the web app (server/pages/docs/docs.ts): the list, a page with heading ids and links between docs, 404s. */
import { rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { webAgent } from '../../helpers/web.js';

/** The checkout's `docs/`, from `dist/test/server/pages/`. */
const DOCS = fileURLToPath(new URL('../../../../docs/', import.meta.url));

describe('docs in the web app', () => {
  it('lists the docs at /docs/ without a sign-in, inside the layout', async () => {
    const res = await webAgent().get('/docs/');
    expect(res.status).to.equal(200);
    expect(res.text).to.contain('<h1>Docs</h1>').and.contain('<a href="/docs/configuration">Configuration</a>');
    expect(res.text).to.contain('<a href="/docs/alerting-rules">Alerting rules</a>').and.contain('<a href="/docs/notes">Notes</a>');
    expect(res.text).to.contain('<a class="docs-link" href="/docs/">Docs</a>');
    const bare = await webAgent().get('/docs');
    expect([bare.status, bare.headers.location]).to.deep.equal([301, '/docs/']);
  });

  it('renders a doc with ids on its headings and links between docs pointing at their pages', async () => {
    const res = await webAgent().get('/docs/configuration');
    expect(res.status).to.equal(200);
    expect(res.headers['content-security-policy']).to.contain("default-src 'self'");
    expect(res.text).to.match(/<title[^>]*>Configuration · /).and.contain('<h1 id="configuration">Configuration</h1>');
    expect(res.text).to.contain('<h2 id="redis-settings">Redis settings</h2>');
    expect(res.text).to.match(/<a href="web-app">web app<\/a>/);
    const rules = await webAgent().get('/docs/alerting-rules');
    expect(rules.text).to.contain('<h2 id="failure-threshold-fail_threshold-fail_window">');
    expect(rules.text).to.contain('<h2 id="late-warning-notify_late">');
  });

  it('answers a 404 page for an unknown name, a name outside [a-z0-9-] and a path out of docs/', async () => {
    const agent = webAgent();
    for (const path of ['/docs/nope', '/docs/..%2fREADME', '/docs/..%2f..%2fpackage.json', '/docs/Configuration', '/docs/configuration.md', '/docs/%2e%2e']) {
      const res = await agent.get(path);
      expect(res.status, path).to.equal(404);
      expect(res.text, path).to.contain('Not found');
      expect(res.text, path).not.to.contain('"dependencies"');
    }
  });

  describe('a doc with raw HTML', () => {
    const file = `${DOCS}zz-test-${process.pid}.md`;
    before(() => writeFile(file, '# Raw\n\n<script>alert(1)</script>\n\nText <img src=x onerror=alert(2)> and [a link](javascript:alert(3)).\n'));
    after(() => rm(file, { force: true }));

    it('shows it as text', async () => {
      const res = await webAgent().get(`/docs/zz-test-${process.pid}`);
      expect(res.status).to.equal(200);
      expect(res.text).to.contain('&lt;script&gt;alert(1)&lt;/script&gt;').and.contain('&lt;img src=x onerror=alert(2)&gt;');
      expect(res.text).not.to.contain('<script>alert').and.not.to.contain('<img src=x').and.not.to.contain('href="javascript:');
    });
  });
});
