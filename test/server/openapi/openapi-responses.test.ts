import { expect } from 'chai';
import type supertest from 'supertest';
import { buildChannel, buildCheck, buildProject, http, type TestProject } from '../../helpers/factories.js';
import { testClock } from '../../helpers/pings.js';
import { ApiValidator } from './validator.js';
import { Channel } from '../../../shared/models/channel.js';

type Method = 'GET' | 'POST' | 'DELETE';
interface CallOptions {
  key?: string;
  body?: object;
  /** The body is meant to break the request body schema (a 400 test). */
  invalid?: boolean;
}

let validator: ApiValidator;
const tc = testClock();
const agent = (): supertest.Agent => http(tc.clock);

/** Sends a request to `/api/v3<path>`, then checks the request and the response against the description. */
async function call(method: Method, template: string, path: string, options: CallOptions = {}): Promise<supertest.Response> {
  const client = agent();
  let req = method === 'GET' ? client.get(`/api/v3${path}`) : method === 'POST' ? client.post(`/api/v3${path}`) : client.delete(`/api/v3${path}`);
  if (options.key) req = req.set('X-Api-Key', options.key);
  if (options.body) {
    if (!options.invalid) validator.request(method, template, options.body);
    req = req.send(options.body);
  }
  const res = await req;
  validator.response(method, template, res);
  return res;
}

const createCheck = (project: TestProject, body: object) => call('POST', '/checks/', '/checks/', { key: project.apiKey, body });

describe('the OpenAPI description against real responses', () => {
  before(async () => {
    validator = new ApiValidator((await agent().get('/api/v3/openapi.json')).body);
  });

  it('matches creating, upserting and listing checks, with both keys', async () => {
    const project = await buildProject();
    expect((await createCheck(project, { name: 'simple', tags: 'a b', timeout: 3600, grace: 60, unique: ['name'] })).status).to.equal(201);
    expect((await createCheck(project, { name: 'cron', schedule: '*/5 * * * *', tz: 'Europe/Riga', channels: '' })).status).to.equal(201);
    expect((await createCheck(project, { name: 'simple', desc: 'again', unique: ['name'] })).status).to.equal(200);
    const rw = await call('GET', '/checks/', '/checks/?tag=a', { key: project.apiKey });
    const ro = await call('GET', '/checks/', '/checks/', { key: project.apiKeyReadonly });
    expect([rw.body.checks.length, ro.body.checks.length]).to.deep.equal([1, 2]);
  });

  it('matches the error answers: 400, 401, 403 (limit and another project) and 404', async () => {
    const project = await buildProject({ checkLimit: 1 });
    const other = await buildCheck(await buildProject());
    await createCheck(project, { name: 'first' });
    expect((await createCheck(project, { name: 'second' })).status).to.equal(403);
    expect((await call('POST', '/checks/', '/checks/', { key: project.apiKey, body: { grace: '60' }, invalid: true })).status).to.equal(400);
    expect((await call('GET', '/checks/', '/checks/')).status).to.equal(401);
    expect((await call('GET', '/checks/{code}', `/checks/${other._id}`, { key: project.apiKey })).status).to.equal(403);
    expect((await call('GET', '/checks/{code}', '/checks/00000000-0000-4000-8000-000000000000', { key: project.apiKey })).status).to.equal(404);
  });

  it('matches getting, updating, pausing, resuming and deleting a check', async () => {
    const project = await buildProject();
    const { body: created } = await createCheck(project, { name: 'job' });
    const { body: readOnly } = await call('GET', '/checks/{code}', `/checks/${created.uuid}`, { key: project.apiKeyReadonly });
    await call('GET', '/checks/{code}', `/checks/${readOnly.unique_key}`, { key: project.apiKeyReadonly });
    await call('POST', '/checks/{code}', `/checks/${created.uuid}`, { key: project.apiKey, body: { schedule: '0 3 * * *' } });
    await call('POST', '/checks/{uuid}/pause', `/checks/${created.uuid}/pause`, { key: project.apiKey });
    await call('POST', '/checks/{uuid}/resume', `/checks/${created.uuid}/resume`, { key: project.apiKey });
    expect((await call('POST', '/checks/{uuid}/resume', `/checks/${created.uuid}/resume`, { key: project.apiKey })).status).to.equal(409);
    expect((await call('DELETE', '/checks/{code}', `/checks/${created.uuid}`, { key: project.apiKey })).body.name).to.equal('job');
  });

  it('matches the ping log, a ping body, and flips by UUID and unique_key', async () => {
    const project = await buildProject();
    const { body: check } = await createCheck(project, { name: 'run' });
    await agent().post(`/ping/${check.uuid}/start`).expect(200);
    tc.advance(90);
    await agent().post(`/ping/${check.uuid}`).send('done').expect(200);
    const { body: log } = await call('GET', '/checks/{uuid}/pings/', `/checks/${check.uuid}/pings/`, { key: project.apiKey });
    expect(log.pings[0].duration).to.equal(90);
    expect((await call('GET', '/checks/{uuid}/pings/{n}/body', `/checks/${check.uuid}/pings/2/body`, { key: project.apiKey })).text).to.equal('done');
    expect((await call('GET', '/checks/{uuid}/pings/{n}/body', `/checks/${check.uuid}/pings/1/body`, { key: project.apiKey })).status).to.equal(404);
    const { body: ro } = await call('GET', '/checks/{code}', `/checks/${check.uuid}`, { key: project.apiKeyReadonly });
    expect((await call('GET', '/checks/{code}/flips/', `/checks/${ro.unique_key}/flips/?seconds=0`, { key: project.apiKeyReadonly })).body).to.have.length(1);
    expect((await call('GET', '/checks/{code}/flips/', `/checks/${check.uuid}/flips/?start=x`, { key: project.apiKey })).status).to.equal(400);
  });

  it('matches the last run’s duration in a check', async () => {
    const project = await buildProject();
    const check = await buildCheck(project, { status: 'up', lastPing: tc.now, lastDurationMs: 2500 });
    expect((await call('GET', '/checks/{code}', `/checks/${check._id}`, { key: project.apiKey })).body.last_duration).to.equal(2);
  });

  it('matches integrations, badges, the status and the description itself', async () => {
    const project = await buildProject();
    await buildChannel(project, { name: 'ops mail' });
    await buildCheck(project, { tags: 'prod db@dc1' });
    expect((await call('GET', '/channels/', '/channels/', { key: project.apiKey })).body.channels).to.have.length(1);
    expect(Object.keys((await call('GET', '/badges/', '/badges/', { key: project.apiKeyReadonly })).body.badges)).to.have.length(3);
    expect((await call('GET', '/status/', '/status/')).text).to.equal('OK');
    expect((await call('GET', '/openapi.json', '/openapi.json')).body.openapi).to.equal('3.1.0');
  });

  it('matches the notification log, with a channel and after its deletion', async () => {
    const project = await buildProject();
    const channel = await buildChannel(project, { name: 'hook', kind: 'webhook', value: 'http://127.0.0.1:9/hook' });
    const check = await buildCheck(project, { status: 'up', channels: [channel._id] });
    await agent().get(`/ping/${check._id}/fail`).expect(200);
    const path = `/checks/${check._id}/notifications/`;
    const { body } = await call('GET', '/checks/{uuid}/notifications/', path, { key: project.apiKey });
    expect(body.notifications.map((n: { outcome: string; channel: { id: string } }) => [n.outcome, n.channel.id])).to.deep.equal([['pending', channel._id]]);
    await Channel.deleteOne({ _id: channel._id });
    expect((await call('GET', '/checks/{uuid}/notifications/', path, { key: project.apiKey })).body.notifications[0].channel).to.equal(null);
  });

  it('matches creating, listing, reading, updating and deleting an integration', async () => {
    const project = await buildProject();
    const key = project.apiKey;
    const { body: created } = await call('POST', '/integrations/', '/integrations/', { key, body: { kind: 'webhook', name: 'hook', value: { url_down: 'https://example.com/x?t=1' } } });
    expect(created.settings.url_down).to.equal('https://example.com/…');
    expect((await call('POST', '/integrations/', '/integrations/', { key, body: { kind: 'nope', value: 'x' } })).status).to.equal(400);
    expect((await call('GET', '/integrations/', '/integrations/', { key })).body.integrations).to.have.length(1);
    expect((await call('GET', '/integrations/{channel}', `/integrations/${created.id}`, { key })).body.name).to.equal('hook');
    expect((await call('POST', '/integrations/{channel}', `/integrations/${created.id}`, { key, body: { name: 'renamed', disabled: true } })).body.disabled).to.equal(true);
    expect((await call('DELETE', '/integrations/{channel}', `/integrations/${created.id}`, { key })).body.name).to.equal('renamed');
    expect((await call('DELETE', '/integrations/{channel}', `/integrations/${created.id}`, { key })).status).to.equal(404);
  });

  it('matches creating, listing, reading, updating and deleting a maintenance window, and a check in it', async () => {
    const project = await buildProject();
    const key = project.apiKey;
    const check = await buildCheck(project, { tags: 'db' });
    const window = { name: 'upgrade', start: '2000-01-01T00:00:00Z', end: '2100-01-01T00:00:00Z', tags: 'db' };
    const { body: created } = await call('POST', '/maintenance/', '/maintenance/', { key, body: window });
    expect(created.active).to.equal(true);
    expect((await call('POST', '/maintenance/', '/maintenance/', { key, body: { ...window, end: '1999-01-01T00:00:00Z' } })).status).to.equal(400);
    expect((await call('GET', '/checks/{code}', `/checks/${check._id}`, { key })).body.maintenance).to.equal(true);
    expect((await call('GET', '/maintenance/', '/maintenance/', { key: project.apiKeyReadonly })).body.maintenance).to.have.length(1);
    expect((await call('GET', '/maintenance/{uuid}', `/maintenance/${created.uuid}`, { key })).body.name).to.equal('upgrade');
    const recurring = { schedule: '0 2 * * *', tz: 'Europe/Riga', duration: 3600, checks: '*' };
    expect((await call('POST', '/maintenance/{uuid}', `/maintenance/${created.uuid}`, { key, body: recurring })).body).to.include({ duration: 3600 });
    expect((await call('DELETE', '/maintenance/{uuid}', `/maintenance/${created.uuid}`, { key })).body.uuid).to.equal(created.uuid);
    expect((await call('GET', '/maintenance/{uuid}', `/maintenance/${created.uuid}`, { key })).status).to.equal(404);
  });

  // Runs last: the tests above must between them have called every documented operation successfully.
  it('has exercised every documented operation with a success', () => {
    expect([...validator.exercised].sort()).to.deep.equal(validator.operations().sort());
  });
});
