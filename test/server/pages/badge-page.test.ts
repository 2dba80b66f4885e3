/**
 * The badges page over HTTP (server/pages/checks/badge-page.ts): the GET form's choices answer the existing badge URLs
 * (docs/api-reference.md, "Badges"), the preview is the SVG badge of the choice, bad choices are a 400 page.
 */
import { expect } from 'chai';
import type supertest from 'supertest';
import { badgeUrls } from '../../../shared/domain/badges.js';
import { config } from '../../../shared/config.js';
import { buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { buildUser, join, signIn, webAgent } from '../../helpers/web.js';

/** A project with a read-only member signed in. */
async function setUp(): Promise<{ built: TestProject; agent: supertest.Agent; base: string }> {
  const built = await buildProject();
  await join(built.project._id, await buildUser('ro@example.org'), 'ro');
  const agent = webAgent();
  await signIn(agent, 'ro@example.org');
  return { built, agent, base: `/projects/${built.project._id}/badges/` };
}

/** The readonly URL field's value and the preview's src of a badges page (attribute-escaped as rendered). */
function shownOf(html: string): { url: string; preview: string } {
  return { url: /id="badge-url" type="text" readonly value="([^"]*)"/.exec(html)?.[1] ?? '', preview: /<img src="([^"]*)"/.exec(html)?.[1] ?? '' };
}

describe('the badges page', () => {
  it('answers the signed badge URL of all checks, a tag or one check, per format and states', async () => {
    const { built, agent, base } = await setUp();
    const check = await buildCheck(built, { name: '<b>db</b> backup', tags: 'prod db' });
    const tagUrls = (tag: string) => badgeUrls(config.baseUrl, built.project.badgeKey, config.secretKey, tag);

    const first = await agent.get(base);
    expect(first.status).to.equal(200);
    expect(first.text).to.contain('aria-current="page">Badges</a>');
    expect(shownOf(first.text)).to.deep.equal({ url: tagUrls('*').svg3, preview: new URL(tagUrls('*').svg3).pathname });
    expect(first.text).to.contain('<option value="tag:db" >db</option>').and.contain('&lt;b&gt;db&lt;/b&gt; backup</option>');

    const tag = await agent.get(base).query({ scope: 'tag:prod', format: 'shields', states: '2' });
    expect(shownOf(tag.text)).to.deep.equal({ url: tagUrls('prod').shields, preview: new URL(tagUrls('prod').svg).pathname });
    expect(tag.text).to.contain('value="tag:prod" selected>');

    const one = await agent.get(base).query({ scope: `check:${check._id}`, format: 'json', states: '3' });
    expect(shownOf(one.text)).to.deep.equal({ url: `${config.baseUrl}/b/3/${check.badgeKey}.json`, preview: `/b/3/${check.badgeKey}.svg` });

    const image = await agent.get(shownOf(one.text).preview);
    expect(image.status).to.equal(200);
    expect(image.type).to.equal('image/svg+xml');
  });

  it('answers a 400 page for an unknown format, states, tag or check', async () => {
    const { built, agent, base } = await setUp();
    const other = await buildCheck(await buildProject(), { tags: 'elsewhere' });
    await buildCheck(built, { tags: 'prod' });
    for (const [query, message] of [
      [{ format: 'png' }, 'no such badge format: png (choose svg, json or shields)'],
      [{ states: '4' }, 'states must be 2 (up, down) or 3 (up, late, down)'],
      [{ scope: 'tag:elsewhere' }, 'no such tag in this project: choose one from the list'],
      [{ scope: 'prod' }, 'no such tag in this project: choose one from the list'],
      [{ scope: `check:${other._id}` }, 'no such check in this project: choose one from the list'],
      ['format=svg&format=json', 'format is given more than once: choose one'],
    ] as const) {
      const res = await agent.get(base).query(query);
      expect(res.status, JSON.stringify(query)).to.equal(400);
      expect(res.text.toLowerCase()).to.contain(message.toLowerCase());
    }
  });
});
