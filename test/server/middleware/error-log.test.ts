import { expect } from 'chai';
import { redactPingPath } from '../../../shared/logger.js';
import { buildCheck, buildProject } from '../../helpers/factories.js';
import { freePort } from '../../helpers/services.js';
import { killChildren, startNode, waitForOutput } from '../../helpers/processes.js';

describe('logs of the web process never carry ping keys or check UUIDs', () => {
  afterEach(killChildren);

  it('redacts everything after /ping/ in a path, and leaves other paths alone', () => {
    expect(['/ping/abc/def/start?rid=1', '/ping/0b5d…', '/api/v3/checks/x'].map(redactPingPath)).to.deep.equal([
      '/ping/[redacted]?rid=1',
      '/ping/[redacted]',
      '/api/v3/checks/x',
    ]);
  });

  it('logs a 500 on a ping URL with the path redacted', async () => {
    const project = await buildProject();
    // A zone the engine does not know makes the ping fail inside the service: a 500.
    const broken = { kind: 'cron' as const, schedule: '* * * * *', tz: 'Mars/Olympus_Mons' };
    const byUuid = await buildCheck(project, broken);
    await buildCheck(project, { ...broken, slug: 'nightly' });
    const port = await freePort();
    const web = startNode('server/main.js', { PORT: String(port), LOG_LEVEL: 'info' });
    await waitForOutput(web, '"msg":"listening"');
    const statuses = [];
    for (const path of [`/ping/${byUuid._id}/0`, `/ping/${project.pingKey}/nightly?create=1`]) {
      statuses.push((await fetch(`http://127.0.0.1:${port}${path}`)).status);
    }
    await web.stop();
    const lines = web.output().split('\n').filter((l) => l.includes('unhandled error'));
    expect(statuses).to.deep.equal([500, 500]);
    expect(lines.map((l) => JSON.parse(l).path)).to.deep.equal(['/ping/[redacted]', '/ping/[redacted]']);
    expect(web.output()).to.not.include(byUuid._id).and.not.include(project.pingKey);
  });
});
