/**
 * No 500 from any text a client sends: every string field of every write endpoint's schema (checks through API v1,
 * v2 and v3, `integrations/`, maintenance windows), the check form and hc-admin get a NUL, lone surrogates, control
 * characters and a 1 MB string. Each answer is the value stored as sent or a 400 naming the field; a NUL and a lone
 * surrogate are refused on every server alike.
 */
import { expect } from 'chai';
import type Joi from 'joi';
import type supertest from 'supertest';
import { checkSchema } from '../../server/schemas/check.js';
import { channelSchema } from '../../server/schemas/channel.js';
import { maintenanceSchema } from '../../server/schemas/maintenance.js';
import { Project } from '../../shared/models/project.js';
import { buildCheck, buildProject, http, type TestProject } from '../helpers/factories.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../helpers/web.js';
import { runCli } from '../scripts/hc-admin/run-cli.js';

/** Texts a client may send, and whether every server must refuse them. */
const SAMPLES: { label: string; text: string; refused: boolean }[] = [
  { label: 'a NUL', text: 'a\u0000b', refused: true },
  { label: 'a lone high surrogate', text: 'a\ud800b', refused: true },
  { label: 'a lone low surrogate', text: '\udc00z', refused: true },
  { label: 'control characters', text: 'c\u0001\u0007\u001b[31m\u007f\u0085\u2028d', refused: false },
  { label: 'a 1 MB string', text: 'x'.repeat(1_000_000), refused: false },
];

/** The fields of a Joi object schema that take a string (`array` when a list of them), from its description. */
function stringFields(schema: Joi.ObjectSchema): { name: string; array: boolean }[] {
  type Described = { type: string; items?: Described[]; matches?: { schema: Described }[] };
  const keys = (schema.describe() as { keys: Record<string, Described> }).keys;
  const takesString = (d: Described): boolean => d.type === 'string' || d.type === 'any' || (d.matches ?? []).some((m) => takesString(m.schema));
  return Object.entries(keys).flatMap(([name, d]): { name: string; array: boolean }[] => {
    if (d.type === 'array') return (d.items ?? []).some(takesString) ? [{ name, array: true }] : [];
    return takesString(d) ? [{ name, array: false }] : [];
  });
}

/** A field whose refusal is the reference API's own message, kept word for word for its clients, rather than the field's name. */
const REFERENCE_MESSAGES: Record<string, string> = { channels: 'invalid channel identifier: ' };

/** What went wrong with one request, or null when its answer is allowed. */
function verdict(res: supertest.Response, field: string, sample: (typeof SAMPLES)[number]): string | null {
  const error = typeof res.body?.error === 'string' ? res.body.error : res.text;
  if (res.status === 400 && (error.includes(field) || (REFERENCE_MESSAGES[field] !== undefined && error.startsWith(REFERENCE_MESSAGES[field])))) return null;
  if (!sample.refused && res.status >= 200 && res.status < 300) return null;
  return `${field} with ${sample.label}: ${res.status} ${String(error).slice(0, 120)}`;
}

describe('security: no 500 from any text a client sends', function () {
  this.timeout(180_000);
  let built: TestProject;
  beforeEach(async () => {
    built = await buildProject({ name: 'Texts' });
  });

  it('walks every string field of the check payload through create (v1, v2, v3) and update', async () => {
    const api = http();
    const check = await buildCheck(built, { name: 'target' });
    const problems: string[] = [];
    for (const { name, array } of stringFields(checkSchema)) {
      for (const sample of SAMPLES) {
        const body = { [name]: array ? [sample.text] : sample.text };
        for (const path of ['/api/v1/checks/', '/api/v2/checks/', '/api/v3/checks/', `/api/v3/checks/${check._id}`]) {
          const res = await api.post(path).set('X-Api-Key', built.apiKey).send(body);
          const bad = verdict(res, name, sample);
          if (bad) problems.push(`${path} ${bad}`);
          else if (res.status < 300 && (name === 'name' || name === 'desc') && res.body[name] !== sample.text) problems.push(`${path} ${name} with ${sample.label}: stored differently`);
        }
      }
    }
    expect(problems).to.deep.equal([]);
  });

  it('walks every string field of the integration payload, its value as text and as settings', async () => {
    const api = http();
    const created = await api.post('/api/v3/integrations/').set('X-Api-Key', built.apiKey).send({ kind: 'webhook', value: 'http://127.0.0.1:9/hook' });
    expect(created.status).to.equal(201);
    const problems: string[] = [];
    for (const { name } of stringFields(channelSchema)) {
      for (const sample of SAMPLES) {
        for (const [path, base] of [['/api/v3/integrations/', { kind: 'webhook', value: 'http://127.0.0.1:9/hook' }], [`/api/v3/integrations/${created.body.id}`, { kind: 'webhook', value: 'http://127.0.0.1:9/hook' }]] as const) {
          const res = await api.post(path).set('X-Api-Key', built.apiKey).send({ ...base, [name]: sample.text });
          const bad = verdict(res, name, sample);
          if (bad) problems.push(`${path} ${bad}`);
        }
      }
    }
    for (const sample of SAMPLES) {
      const res = await api.post('/api/v3/integrations/').set('X-Api-Key', built.apiKey).send({ kind: 'webhook', value: { url_down: sample.text } });
      const bad = verdict(res, 'url_down', sample);
      if (bad) problems.push(`value.url_down ${bad}`);
    }
    expect(problems).to.deep.equal([]);
  });

  it('walks every string field of the maintenance window payload', async () => {
    const api = http();
    const base = { name: 'window', start: '2030-01-01T00:00:00Z', end: '2030-01-02T00:00:00Z', checks: '*' };
    const problems: string[] = [];
    for (const { name, array } of stringFields(maintenanceSchema)) {
      for (const sample of SAMPLES) {
        const res = await api.post('/api/v3/maintenance/').set('X-Api-Key', built.apiKey).send({ ...base, [name]: array ? [sample.text] : sample.text });
        const bad = verdict(res, name, sample);
        if (bad) problems.push(bad);
      }
    }
    expect(problems).to.deep.equal([]);
  });

  it('answers every field of the check form with a NUL by a 400 naming the field', async () => {
    await join(built.project._id, await buildUser('own@example.org'), 'owner');
    const agent = webAgent();
    await signIn(agent, 'own@example.org');
    const form = (await agent.get(`/projects/${built.project._id}/checks/new/`)).text;
    const fields = [...new Set([...form.matchAll(/<(?:input|textarea|select)[^>]*name="([a-z_]+)"/g)].map((m) => m[1]))].filter((f) => f !== '_csrf');
    expect(fields).to.include.members(['name', 'desc', 'tags']);
    const problems: string[] = [];
    for (const field of fields) {
      const res = await agent.post(`/projects/${built.project._id}/checks/`).type('form').send({ _csrf: csrfOf(form), name: 'x', [field]: 'a\u0000b' });
      if (res.status !== 400 || !res.text.includes(`“${field}”`)) problems.push(`${field}: ${res.status}`);
    }
    expect(problems).to.deep.equal([]);
  });

  it('stores control characters in a name given to hc-admin as sent, and answers a long one without a stack trace', async () => {
    const name = 'ops\u0001\u0007\u001b[0m';
    const made = await runCli(['project', 'create', '--name', name]);
    expect(made.code).to.equal(0);
    expect(await Project.exists({ name })).to.not.equal(null);
    const long = await runCli(['project', 'create', '--name', 'y'.repeat(100_000)]);
    if (long.code === 0) expect(await Project.exists({ name: 'y'.repeat(100_000) })).to.not.equal(null);
    else expect(long.stderr.trim().split('\n').filter((l) => !l.startsWith('hc-admin: database'))).to.have.length(1).and.satisfy((l: string[]) => l[0].includes('name'));
  });
});
