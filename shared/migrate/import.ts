/**
 * `hc-admin import healthchecks`: a Healthchecks dump in, the same projects, people, checks, channels and history here
 * (docs/migrating.md). Parse, plan, rule out conflicts, then write; `dryRun` stops before the write and says what it would do.
 */
import { findConflicts, assertNoConflicts } from './conflicts.js';
import { parseDump, type Dump } from './dump.js';
import { planImport, type ImportPlan } from './plan.js';
import { writePlan, type ImportCounts, type WriteOptions } from './write.js';

/** What an import did, or would do. */
export interface ImportReport {
  dryRun: boolean;
  projects: { id: string; name: string; checks: number; channels: number }[];
  users: string[];
  skipped: string[];
  /** On a dry run, what would stop the real one. */
  conflicts: string[];
  written: ImportCounts | null;
}

/** Options of {@link importPlan}. */
export interface ImportOptions extends WriteOptions {
  dryRun?: boolean;
}

/**
 * Imports a plan (from a dump, or from the Management API: api-source.ts).
 * @throws AppError(409) when something conflicts (nothing written); the driver's error.
 */
export async function importPlan(plan: ImportPlan, options: ImportOptions): Promise<ImportReport> {
  const summary = {
    projects: plan.projects.map((p) => ({ id: p.id, name: p.name, checks: p.checks.length, channels: p.channels.length })),
    users: plan.users.map((u) => u.email),
    skipped: plan.skipped,
  };
  if (options.dryRun) return { dryRun: true, ...summary, conflicts: await findConflicts(plan), written: null };
  await assertNoConflicts(plan);
  return { dryRun: false, ...summary, conflicts: [], written: await writePlan(plan, options) };
}

/**
 * Imports a dump's text.
 * @param secret - The SECRET_KEY of the site that made the dump (for its API keys and badge URLs).
 * @throws AppError(400) for a file that is not a Healthchecks dump; see {@link importPlan}.
 */
export async function importDump(text: string, secret: string | undefined, options: ImportOptions): Promise<ImportReport> {
  const dump: Dump = parseDump(text);
  return importPlan(planImport(dump, secret), options);
}
