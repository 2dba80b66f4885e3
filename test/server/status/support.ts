/**
 * Shared bits of the public status page tests (server/status/): pages and incidents stored straight through their models, a visitor's agent
 * on a fresh app (so each test's cache starts cold), and a small well-formedness check of the Atom feed's XML.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type supertest from 'supertest';
import { StatusPage, type StatusPageDoc } from '../../../shared/models/status-page.js';
import { Incident, type IncidentDoc } from '../../../shared/models/incident.js';
import type { CheckDoc } from '../../../shared/models/check.js';
import type { Clock } from '../../../shared/clock.js';
import type { TestProject } from '../../helpers/factories.js';
import { webAgent } from '../../helpers/web.js';

/** Text with every character HTML and XML escape: what owners may type. */
export const NASTY = `<b>&"'`;

/** A visitor: a supertest agent (cookies kept) on a new app, real time unless `clock`. */
export function visitor(clock?: Clock): supertest.Agent {
  return webAgent({}, clock);
}

/**
 * Stores a published public page of `project` at slug `acme` (unless `fields` say otherwise).
 * @param components - Sections by name, each a list of [check, public name].
 */
export async function buildStatusPage(project: TestProject, components: Record<string, [CheckDoc, string][]> = {}, fields: Partial<StatusPageDoc> = {}): Promise<StatusPageDoc> {
  const now = new Date();
  const sections = Object.entries(components).map(([name, list]) => ({ name, components: list.map(([check, shown]) => ({ checkId: check._id, name: shown })) }));
  const page = await StatusPage.create({
    _id: randomUUID(),
    projectId: project.project._id,
    slug: 'acme',
    title: 'Acme services',
    description: 'What Acme runs at night',
    published: true,
    sections,
    created: now,
    updated: now,
    ...fields,
  });
  return page.toObject();
}

/** Stores an incident of `page` created at `created` with one update per stage given (oldest first, an hour apart); resolved when the last is. */
export async function buildIncident(page: StatusPageDoc, title: string, created: Date, stages: IncidentDoc['updates'][number]['stage'][] = ['investigating']): Promise<IncidentDoc> {
  const updates = stages.map((stage, n) => ({ at: new Date(created.getTime() + n * 3600_000), stage, text: `${stage} ${title}` }));
  const resolved = stages.at(-1) === 'resolved' ? (updates.at(-1)?.at ?? created) : null;
  return (await Incident.create({ _id: randomUUID(), pageId: page._id, title, updates, resolved, created })).toObject();
}

/** A moment `days` days before `from`. */
export function daysAgo(days: number, from = new Date()): Date {
  return new Date(from.getTime() - days * 24 * 3600_000);
}

/** Parses a JSON answer's text (fails the test when it is not JSON). */
export function jsonOf(res: supertest.Response): Record<string, unknown> {
  return JSON.parse(res.text) as Record<string, unknown>;
}

/**
 * Asserts `xml` is well-formed as far as a feed needs: one root, every tag closed in order, attribute values quoted, and no bare `<` or `&` in
 * text or attributes (only the five named entities and numeric ones).
 */
export function expectWellFormedXml(xml: string): void {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const open: string[] = [];
  let roots = 0;
  const TOKEN = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let match: RegExpExecArray | null;
  let at = 0;
  while (at < body.length && (match = TOKEN.exec(body)) !== null) {
    at = TOKEN.lastIndex;
    const [, closing, name, attributes, selfClosing, text] = match;
    const raw = text ?? attributes;
    expect(raw.replace(/&(?:lt|gt|amp|quot|apos|#\d+|#x[\da-fA-F]+);/g, ''), 'a bare & in the XML').not.to.contain('&');
    if (text !== undefined) {
      if (open.length === 0) expect(text.trim(), 'text outside the root').to.equal('');
      continue;
    }
    if (closing) {
      expect(open.pop(), `</${name}> closes another element`).to.equal(name);
      continue;
    }
    if (open.length === 0) roots++;
    if (!selfClosing) open.push(name);
  }
  expect(at, `unparsable XML at ${at}: ${body.slice(at, at + 40)}`).to.equal(body.length);
  expect(open, 'unclosed elements').to.deep.equal([]);
  expect(roots, 'root elements').to.equal(1);
}
