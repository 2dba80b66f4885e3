/**
 * Writes of status pages and their incidents (docs/status-pages.md), for the owners' pages (server/pages/status-pages/status-pages.ts): each write counts an
 * edit (`rev`) and tells every web process's cache through the change stream (shared/status-pages/changes.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { StatusPage, type StatusLogo, type StatusPageDoc, type StatusSection } from '../../shared/models/status-page.js';
import { Incident, type IncidentDoc, type IncidentStage } from '../../shared/models/incident.js';
import { announceChanges } from '../../shared/status-pages/changes.js';
import { AppError } from '../../shared/errors.js';
import { logger } from '../../shared/logger.js';

const log = logger.child({ module: 'status-pages' });

/** A page's settings as the form gives them, checked; `passwordHash` undefined keeps the stored one. */
export type PageSettings = Pick<StatusPageDoc, 'title' | 'slug' | 'description' | 'tz' | 'published' | 'visibility'> & { passwordHash?: string | null };

/** Thrown when another page has the slug. */
export class SlugTaken extends Error {
  constructor(slug: string) {
    super(`the address /status/${slug}/ is taken: choose another`);
    this.name = 'SlugTaken';
  }
}

/** Tells the caches a page changed; a lost word only delays it by the cache's age limit. */
async function announcePage(redis: Redis, pageId: string): Promise<void> {
  await announceChanges(redis, [{ kind: 'page', id: pageId }]).catch((err: unknown) => log.warn({ err, pageId }, 'cannot tell status pages'));
}

/** Whether a MongoDB error is a unique index's duplicate key. */
function isDuplicate(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}

/**
 * Creates a page in a project, unpublished unless the settings say so.
 * @throws SlugTaken; the MongoDB error.
 */
export async function createStatusPage(redis: Redis, projectId: string, settings: PageSettings, now: Date): Promise<StatusPageDoc> {
  const page = { _id: randomUUID(), projectId, ...settings, passwordHash: settings.passwordHash ?? null, sections: [], logo: null, rev: 0, created: now, updated: now };
  try {
    await StatusPage.create(page);
  } catch (err) {
    if (isDuplicate(err)) throw new SlugTaken(settings.slug);
    throw err;
  }
  await announcePage(redis, page._id);
  return page;
}

/**
 * Applies `set` to the page, counting an edit.
 * @throws SlugTaken; AppError(404) when the page was deleted meanwhile; the MongoDB error.
 */
export async function updateStatusPage(redis: Redis, page: Pick<StatusPageDoc, '_id' | 'slug'>, set: Partial<PageSettings> & { sections?: StatusSection[]; logo?: StatusLogo | null }, now: Date): Promise<void> {
  const fields = Object.fromEntries(Object.entries(set).filter(([, value]) => value !== undefined));
  try {
    const done = await StatusPage.updateOne({ _id: page._id }, { $set: { ...fields, updated: now }, $inc: { rev: 1 } });
    if (done.matchedCount === 0) throw new AppError(404, 'no such status page: it may have been deleted');
  } catch (err) {
    if (isDuplicate(err)) throw new SlugTaken(String(set.slug));
    throw err;
  }
  await announcePage(redis, page._id);
}

/** Deletes a page with its incidents. @throws the MongoDB error. */
export async function deleteStatusPage(redis: Redis, pageId: string): Promise<void> {
  await StatusPage.deleteOne({ _id: pageId });
  await Incident.deleteMany({ pageId });
  await announcePage(redis, pageId);
}

/** Milliseconds a resolved incident is kept (and listed). */
export const INCIDENT_KEEP_MS = 90 * 24 * 3600 * 1000;

/** Deletes the page's incidents resolved more than {@link INCIDENT_KEEP_MS} before `now`: each incident write of a page trims it. */
async function pruneIncidents(pageId: string, now: Date): Promise<void> {
  await Incident.deleteMany({ pageId, resolved: { $lt: new Date(now.getTime() - INCIDENT_KEEP_MS) } });
}

/** Opens an incident with its first update, trimming the page's old ones. @throws the MongoDB error. */
export async function createIncident(redis: Redis, pageId: string, title: string, stage: IncidentStage, text: string, now: Date): Promise<IncidentDoc> {
  const incident = { _id: randomUUID(), pageId, title, updates: [{ at: now, stage, text }], resolved: stage === 'resolved' ? now : null, created: now };
  await Incident.create(incident);
  await pruneIncidents(pageId, now);
  await announcePage(redis, pageId);
  return incident;
}

/**
 * Adds an update: `resolved` closes the incident, any other stage reopens it; trims the page's old ones.
 * @throws AppError(404) when the incident was deleted meanwhile; the MongoDB error.
 */
export async function updateIncident(redis: Redis, incident: Pick<IncidentDoc, '_id' | 'pageId'>, stage: IncidentStage, text: string, now: Date): Promise<void> {
  const done = await Incident.updateOne({ _id: incident._id }, { $push: { updates: { at: now, stage, text } }, $set: { resolved: stage === 'resolved' ? now : null } });
  if (done.matchedCount === 0) throw new AppError(404, 'no such incident: it may have been deleted');
  await pruneIncidents(incident.pageId, now);
  await announcePage(redis, incident.pageId);
}

/** Deletes an incident. @throws the MongoDB error. */
export async function deleteIncident(redis: Redis, incident: Pick<IncidentDoc, '_id' | 'pageId'>): Promise<void> {
  await Incident.deleteOne({ _id: incident._id });
  await announcePage(redis, incident.pageId);
}
