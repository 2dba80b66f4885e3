import { expect } from 'chai';
import express from 'express';
import supertest from 'supertest';
import { Project } from '../../../shared/models/project.js';
import { hashApiKey } from '../../../shared/services/projects.js';
import { authOf, requireKey } from '../../../server/middleware/auth.js';
import { config } from '../../../shared/config.js';
import { freePort } from '../../helpers/services.js';
import { jsonOf, runCli, stderrLines } from './run-cli.js';

interface Created {
  id: string;
  name: string;
  api_key: string;
  api_key_readonly: string;
  ping_key: string;
}

async function create(...extra: string[]): Promise<Created> {
  const result = await runCli(['project', 'create', '--name', 'backups', ...extra]);
  expect(result.code, result.stderr).to.equal(0);
  return jsonOf(result) as Created;
}

describe('hc-admin project create', () => {
  it('prints exactly the id, name and keys as one JSON object', async () => {
    const created = await create();
    expect(Object.keys(created)).to.have.members(['id', 'name', 'api_key', 'api_key_readonly', 'ping_key']);
    expect(created.id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(created.name).to.equal('backups');
    expect(created.api_key).to.match(/^hcw_[A-Za-z0-9_-]{28}$/);
    expect(created.api_key_readonly).to.match(/^hcr_[A-Za-z0-9_-]{28}$/);
    expect(created.ping_key).to.match(/^[A-Za-z0-9_-]{22}$/);
  });

  it('stores the digests of the printed API keys and the ping key', async () => {
    const created = await create();
    const project = await Project.findById(created.id).lean();
    expect(project?.apiKeyHash).to.equal(hashApiKey(created.api_key));
    expect(project?.apiKeyReadonlyHash).to.equal(hashApiKey(created.api_key_readonly));
    expect(project?.pingKey).to.equal(created.ping_key);
  });

  it('prints an API key that the API key check accepts for writing', async () => {
    const created = await create();
    const app = express().get('/', requireKey('write'), (req, res) => void res.json({ id: authOf(req).project._id }));
    const res = await supertest(app).get('/').set('X-Api-Key', created.api_key);
    expect(res.status).to.equal(200);
    expect(res.body.id).to.equal(created.id);
  });

  it('applies --ping-log-limit and --check-limit', async () => {
    const created = await create('--ping-log-limit', '5', '--check-limit', '0');
    const project = await Project.findById(created.id).lean();
    expect(project?.pingLogLimit).to.equal(5);
    expect(project?.checkLimit).to.equal(0);
  });

  it('uses the configured default limits when none are given', async () => {
    const project = await Project.findById((await create()).id).lean();
    expect(project?.pingLogLimit).to.equal(config.defaultPingLogLimit);
    expect(project?.checkLimit).to.equal(config.defaultCheckLimit);
  });

  it('exits 2 with one line on stderr when --name is missing', async () => {
    const result = await runCli(['project', 'create']);
    expect(result.code).to.equal(2);
    expect(result.stdout).to.equal('');
    expect(stderrLines(result)).to.deep.equal(["hc-admin: required option '--name <name>' not specified"]);
  });

  it('exits 2 with one line on stderr for a limit that is not a whole number', async () => {
    const result = await runCli(['project', 'create', '--name', 'x', '--check-limit', '2.5']);
    expect(result.code).to.equal(2);
    expect(stderrLines(result)).to.have.lengthOf(1);
    expect(stderrLines(result)[0]).to.include("'--check-limit <n>' argument '2.5' is invalid");
    expect(await Project.countDocuments()).to.equal(0);
  });

  it('exits 1 with one line on stderr when MongoDB cannot be reached', async () => {
    const result = await runCli(['project', 'create', '--name', 'x'], { MONGODB_URI: `mongodb://127.0.0.1:${await freePort()}/x` });
    expect(result.code).to.equal(1);
    expect(result.stdout).to.equal('');
    expect(stderrLines(result)).to.have.lengthOf(1);
    expect(stderrLines(result)[0]).to.match(/^hc-admin: cannot reach MongoDB at 127\.0\.0\.1:\d+\/x: connect ECONNREFUSED/);
  });
});
