/**
 * The Healthchecks fixture of test/fixtures/healthchecks/: a dump a real Healthchecks wrote
 * (`manage.py dumpdata auth.user accounts api`), its Management API's answers recorded at the same moment, and the plain secrets that went into it.
 */
import { readFileSync } from 'node:fs';
import { REPO_ROOT } from './clients.js';
import { importDump, type ImportReport } from '../../shared/migrate/import.js';
import { testContext } from './hooks.js';

const DIR = `${REPO_ROOT}test/fixtures/healthchecks`;

/** The dump's text. */
export const DUMP_TEXT = readFileSync(`${DIR}/dump.json`, 'utf8');

/** The plain secrets behind the dump. */
export const SECRETS = JSON.parse(readFileSync(`${DIR}/secrets.json`, 'utf8')) as {
  secret_key: string;
  site_root: string;
  passwords: Record<string, string>;
  api_keys: Record<string, { rw: string; ro?: string }>;
  ping_keys: Record<string, string>;
};

/** The recorded answers, by path. */
export const ANSWERS = (JSON.parse(readFileSync(`${DIR}/api-answers.json`, 'utf8')) as { answers: Record<string, { status: number; type: string; body: string }> }).answers;

/** The project with checks of every kind, and the other. */
export const BACKUPS = '73e55ede-c10a-4101-9d52-d83c5774a6c7';
export const BOBS = '5245da9c-6e56-42ab-8a73-fc08fdcd9cc8';
/** Checks of the Backups project. */
export const NIGHTLY = '10a688d3-f046-45c9-a232-55f3aca38152';
export const CRON = 'd9f04516-bd6b-4b6a-b768-c8cc91885322';

/** A moment just after the dump and the recording (every recorded status holds then). */
export const RECORDED_AT = new Date('2026-12-01T23:11:05Z');

/** The dump's records of one model. */
export function records(model: string): { pk: number; fields: Record<string, any> }[] {
  return (JSON.parse(DUMP_TEXT) as { model: string; pk: number; fields: Record<string, any> }[]).filter((r) => r.model === model);
}

/** Imports the dump with its secret key, deadlines going to the run's queues, as at `now`. */
export function importFixture(now: Date = RECORDED_AT): Promise<ImportReport> {
  return importDump(DUMP_TEXT, SECRETS.secret_key, { queues: testContext().queues, now });
}

/** A recorded JSON answer of the reference, with its site root replaced by `ours`. */
export function recordedJson(path: string, ours: string): any {
  return JSON.parse(ANSWERS[path].body.replaceAll(SECRETS.site_root, ours));
}

/** The dump's path. */
export const DUMP_FILE = `${DIR}/dump.json`;
