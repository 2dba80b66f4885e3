import { expect } from 'chai';
import { buildCheck } from '../../../helpers/factories.js';
import { uniqueKeyOf } from '../../../../shared/domain/ids.js';
import { NOW, fixedClock } from '../support.js';
import { READONLY_KEY, appWith, opsOf, projectWithReadonlyKey } from './support.js';
import type { TestProject } from '../../../helpers/factories.js';

const MINUTE_MS = 60_000;

async function scrape(project: TestProject): Promise<string> {
  const res = await appWith(opsOf(), fixedClock()).get(`/projects/${project.project._id}/metrics/${READONLY_KEY}`);
  expect(res.status).to.equal(200);
  return res.text;
}

function spec(name: string, tags: string, uuid: string): string {
  return `{name="${name}", tags="${tags}", unique_key="${uniqueKeyOf(uuid)}"}`;
}

describe('GET /projects/<uuid>/metrics/<key>: output', () => {
  it('writes the reference’s families, HELP and TYPE lines and blank lines, byte for byte', async () => {
    const project = await projectWithReadonlyKey();
    const check = await buildCheck(project, { name: 'Alice Was Here', tags: 'foo' });
    const labels = spec('Alice Was Here', 'foo', check._id);
    expect(await scrape(project)).to.equal([
      '# HELP hc_check_up Whether the check is currently up (1 for yes, 0 for no).\n# TYPE hc_check_up gauge\n',
      `hc_check_up${labels} 1\n\n`,
      '# HELP hc_check_started Whether the check is currently started (1 for yes, 0 for no).\n# TYPE hc_check_started gauge\n',
      `hc_check_started${labels} 0\n\n`,
      '# HELP hc_check_grace Whether the check is currently in the grace period (1 for yes, 0 for no).\n# TYPE hc_check_grace gauge\n',
      `hc_check_grace${labels} 0\n\n`,
      '# HELP hc_check_paused Whether the check is currently paused (1 for yes, 0 for no).\n# TYPE hc_check_paused gauge\n',
      `hc_check_paused${labels} 0\n\n`,
      '# HELP hc_tag_up Whether all checks with this tag are up (1 for yes, 0 for no).\n# TYPE hc_tag_up gauge\n',
      'hc_tag_up{tag="foo"} 1\n\n',
      '# HELP hc_checks_total The total number of checks.\n# TYPE hc_checks_total gauge\nhc_checks_total 1\n\n',
      '# HELP hc_checks_down_total The number of checks currently down.\n# TYPE hc_checks_down_total gauge\nhc_checks_down_total 0\n',
    ].join(''));
  });

  it('reports a started check as started and still up', async () => {
    const project = await projectWithReadonlyKey();
    const check = await buildCheck(project, { name: 'Alice Was Here', tags: 'foo', lastStart: NOW });
    const text = await scrape(project);
    expect(text).to.include(`hc_check_up${spec('Alice Was Here', 'foo', check._id)} 1\n`);
    expect(text).to.include(`hc_check_started${spec('Alice Was Here', 'foo', check._id)} 1\n`);
  });

  it('reports a paused check as paused and up', async () => {
    const project = await projectWithReadonlyKey();
    const check = await buildCheck(project, { name: 'Alice Was Here', tags: 'foo', status: 'paused' });
    const text = await scrape(project);
    expect(text).to.include(`hc_check_up${spec('Alice Was Here', 'foo', check._id)} 1\n`);
    expect(text).to.include(`hc_check_paused${spec('Alice Was Here', 'foo', check._id)} 1\n`);
  });

  it('reports a check in its grace period', async () => {
    const project = await projectWithReadonlyKey();
    const lastPing = new Date(NOW.getTime() - 15 * MINUTE_MS);
    const check = await buildCheck(project, { name: 'Alice Was Here', tags: 'foo', status: 'up', timeout: 600, grace: 600, lastPing });
    const text = await scrape(project);
    expect(text).to.include(`hc_check_up${spec('Alice Was Here', 'foo', check._id)} 1\n`);
    expect(text).to.include(`hc_check_grace${spec('Alice Was Here', 'foo', check._id)} 1\n`);
  });

  it('counts a check past its grace as down, and its tags as down', async () => {
    const project = await projectWithReadonlyKey();
    const lastPing = new Date(NOW.getTime() - 30 * MINUTE_MS);
    const check = await buildCheck(project, { name: 'db', tags: 'prod  eu', status: 'up', timeout: 600, grace: 600, lastPing });
    await buildCheck(project, { name: 'web', tags: 'prod web' });
    const text = await scrape(project);
    expect(text).to.include(`hc_check_up${spec('db', 'prod  eu', check._id)} 0\n`);
    expect(text).to.include('hc_tag_up{tag="eu"} 0\nhc_tag_up{tag="prod"} 0\nhc_tag_up{tag="web"} 1\n');
    expect(text).to.include('hc_checks_total 2\n');
    expect(text).to.include('hc_checks_down_total 1\n');
  });

  it('escapes backslashes, double quotes and newlines in label values', async () => {
    const project = await projectWithReadonlyKey();
    await buildCheck(project, { name: 'Line 1\nLine2 "q"', tags: 'A\\C' });
    const text = await scrape(project);
    expect(text).to.include('name="Line 1\\nLine2 \\"q\\"", tags="A\\\\C"');
    expect(text).to.include('hc_tag_up{tag="A\\\\C"} 1\n');
  });

  it('lists checks in creation order and only the key’s project', async () => {
    const project = await projectWithReadonlyKey();
    const other = await projectWithReadonlyKey('O'.repeat(32));
    await buildCheck(project, { name: 'second', created: new Date(NOW.getTime() - MINUTE_MS) });
    await buildCheck(project, { name: 'first', created: new Date(NOW.getTime() - 2 * MINUTE_MS) });
    await buildCheck(other, { name: 'elsewhere' });
    const names = [...(await scrape(project)).matchAll(/^hc_check_up\{name="([^"]*)"/gm)].map((m) => m[1]);
    expect(names).to.deep.equal(['first', 'second']);
  });

  it('writes empty families for a project with no checks', async () => {
    const project = await projectWithReadonlyKey();
    const text = await scrape(project);
    expect(text).to.include('# TYPE hc_tag_up gauge\n\n# HELP hc_checks_total');
    expect(text).to.include('hc_checks_total 0\n');
  });
});
