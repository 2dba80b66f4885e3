/**
 * How the web process serves the read-only wall display (server/routes/dashboard.ts): its page at `/wall/`, its
 * files under `/dashboard/`, and nothing else.
 */
import { expect } from 'chai';
import { http } from '../../helpers/factories.js';

describe('dashboard files', () => {
  it('serves the page at /wall/ with a policy that allows this origin only', async () => {
    const res = await http().get('/wall/');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^text\/html/);
    expect(res.headers['content-security-policy']).to.contain("default-src 'self'");
    expect(res.headers['x-content-type-options']).to.equal('nosniff');
    expect(res.text).to.contain('<script type="module" src="/dashboard/app.js">');
  });

  it('says, without scripts, that /wall/ is a read-only wall display and links to the real sign-in', async () => {
    const res = await http().get('/wall/');
    expect(res.text).to.contain('<title>Wall display · hc-monitor</title>');
    expect(res.text).to.contain('<span id="wall-label" class="access">Wall display: read-only</span>');
    expect(res.text).to.contain('<a id="real-sign-in" href="/signin/">Sign in to change checks</a>');
  });

  it('serves its scripts and styles with their types', async () => {
    const script = await http().get('/dashboard/app.js');
    expect([script.status, script.headers['content-type']]).to.deep.equal([200, 'text/javascript; charset=utf-8']);
    expect(script.headers['content-security-policy']).to.contain("default-src 'self'");
    const style = await http().get('/dashboard/dashboard.css');
    expect([style.status, style.headers['content-type']]).to.deep.equal([200, 'text/css; charset=utf-8']);
  });

  for (const path of ['/dashboard/missing.js', '/Dashboard/app.js', '/dashboard/..%2fpackage.json', '/dashboard/../package.json', '/dashboard', '/dashboard/', '/index.html']) {
    it(`answers ${path} with the JSON 404 of any unknown path`, async () => {
      const res = await http().get(path);
      expect([res.status, res.body]).to.deep.equal([404, { error: 'not found' }]);
    });
  }

  it('answers POST /wall/ with the JSON 404 (the page is GET only)', async () => {
    const res = await http().post('/wall/').send({});
    expect([res.status, res.body]).to.deep.equal([404, { error: 'not found' }]);
  });
});
