/**
 * The one page router (server/pages/kit/page-router.ts): a route an area registers gets the session and the CSRF
 * check without naming them, while the API, the badges, the Pinging API and addresses under no page never get a
 * session cookie.
 */
import express, { Router } from 'express';
import supertest from 'supertest';
import { expect } from 'chai';
import { PingJournal } from '../../../shared/pings/journal.js';
import { config } from '../../../shared/config.js';
import { PAGE_AREAS, pagesRouter } from '../../../server/pages/index.js';
import type { PageArea } from '../../../server/pages/kit/area.js';
import { pagePathsOf } from '../../../server/pages/kit/page-paths.js';
import { SESSION_COOKIE } from '../../../server/pages/kit/session.js';
import { testContext } from '../../helpers/hooks.js';
import { buildProject, http } from '../../helpers/factories.js';
import { tokenOf, webOptions } from '../../helpers/web.js';

/** A made-up area with one form at a path no other area uses. */
const probeArea: PageArea = {
  pages: () => {
    const router = Router({ strict: true });
    router.post('/probe/', (_req, res) => res.type('text').send(`posted, signed in: ${String(res.locals.user !== undefined)}`));
    return [router];
  },
};

/** An agent on the page routes alone, with the probe area mounted after the real ones. */
function probeAgent(): supertest.Agent {
  const { redis, queues } = testContext();
  const journal = new PingJournal(redis, config.queuePrefix, config.pingJournalLeaseMs);
  const app = express().use(pagesRouter({ clock: () => new Date(), redis, queues, journal, web: webOptions() }, [...PAGE_AREAS, probeArea]));
  return supertest.agent(app);
}

/** Whether an answer sets the session cookie. */
const setsSession = (res: supertest.Response): boolean =>
  ([] as string[]).concat(res.headers['set-cookie'] ?? []).some((c) => c.startsWith(`${SESSION_COOKIE}=`));

describe('the page router', () => {
  it('refuses a POST without a CSRF token to a route an area registers, and accepts it with the session’s token', async () => {
    const agent = probeAgent();
    const refused = await agent.post('/probe/').type('form').send({ name: 'x' });
    expect(refused.status).to.equal(403);
    expect(refused.text).to.contain('This form has expired or did not come from this site');
    const _csrf = await tokenOf(agent);
    const accepted = await agent.post('/probe/').type('form').send({ _csrf, name: 'x' });
    expect([accepted.status, accepted.text]).to.deep.equal([200, 'posted, signed in: false']);
  });

  it('sends no path to the page router that none of its routes starts like', async () => {
    const agent = probeAgent();
    const res = await agent.post('/probe-other/').type('form').send({ name: 'x' });
    expect(res.status).to.equal(404);
    expect(setsSession(res)).to.equal(false);
  });

  it('sets no session cookie on the API, badge, ping and unknown paths, and one on a page', async () => {
    const project = await buildProject();
    const paths = ['/api/v3/checks/', '/api/v3/status/', '/api/v3/nope', `/badge/${project.project.badgeKey}/abc.svg`, '/ping/00000000-0000-4000-8000-000000000000', '/nope/', '/wp-login.php'];
    for (const path of paths) {
      for (const accept of ['text/html', 'application/json']) {
        const res = await http().get(path).set('Accept', accept);
        expect(setsSession(res), `${path} ${accept}`).to.equal(false);
      }
    }
    expect(setsSession(await http().post('/ping/00000000-0000-4000-8000-000000000000').send('x'))).to.equal(false);
    expect(setsSession(await http().get('/signin/'))).to.equal(true);
  });

  it('refuses to start with a page route that begins with a parameter, which would take every address', () => {
    const router = Router();
    router.get('/:anything/', (_req, res) => res.send('x'));
    expect(() => pagePathsOf(router)).to.throw('a page route must start with a fixed segment: /:anything/');
  });
});
