/**
 * The web app's 404 (server/pages/kit/not-found.ts) over HTTP: a browser's request (Accept: text/html) for an unknown
 * address gets a page in the app's layout with a link home, signed in or not; any other client gets the JSON 404 as
 * before, and `/api/…` and `/ping/…` paths keep their JSON and plain-text 404s whatever the Accept header says.
 */
import { expect } from 'chai';
import type supertest from 'supertest';
import { buildProject, http } from '../../helpers/factories.js';
import { buildUser, join, signIn, webAgent } from '../../helpers/web.js';

/** What a browser sends when it follows a link. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

/** Status, content type and body of an answer, to compare two. */
const shapeOf = (res: supertest.Response) => ({ status: res.status, type: String(res.headers['content-type']), text: res.text });

describe('404 page', () => {
  it('answers a browser an HTML page with a link home, and anyone else JSON as before', async () => {
    for (const path of ['/nope/', '/nope', '/projects/00000000-0000-4000-8000-000000000000/nope', '/projects/x/y/z']) {
      const page = await http().get(path).set('Accept', BROWSER_ACCEPT);
      expect(page.status, path).to.equal(404);
      expect(page.headers['content-type'], path).to.match(/^text\/html/);
      expect(page.headers['content-security-policy'], path).to.contain("default-src 'self'");
      expect(page.text, path).to.contain('<h1>Not found</h1>').and.contain('There is no page at this address.').and.contain('<a href="/">');
      for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html;q=0.5']) {
        const req = http().get(path);
        const res = await (accept ? req.set('Accept', accept) : req);
        expect([res.status, res.body], `${path} ${accept}`).to.deep.equal([404, { error: 'not found' }]);
      }
    }
  });

  it('keeps the 404s of /api/… and /ping/… paths whatever the browser accepts', async () => {
    for (const path of ['/api/v3/nope', '/api/v3/checks/nope/x', '/api/v9/checks/', '/api', '/ping/nope', '/ping/not-a-uuid/x/y/z', '/ping']) {
      const plain = shapeOf(await http().get(path));
      expect(plain.status, path).to.equal(404);
      expect(shapeOf(await http().get(path).set('Accept', BROWSER_ACCEPT)), path).to.deep.equal(plain);
    }
  });

  it("shows a signed-in member the page in the app's layout, under their project's paths too", async () => {
    const built = await buildProject({ name: 'Backups' });
    await join(built.project._id, await buildUser('member@example.org'), 'rw');
    const agent = webAgent();
    await signIn(agent, 'member@example.org');
    for (const path of [`/projects/${built.project._id}/nope`, `/projects/${built.project._id}/checks/x/y/z/`]) {
      const page = await agent.get(path).set('Accept', BROWSER_ACCEPT);
      expect(page.status, path).to.equal(404);
      expect(page.text, path).to.contain('<h1>Not found</h1>').and.contain('member@example.org');
    }
  });
});
