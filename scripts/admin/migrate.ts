/**
 * `hc-admin import healthchecks FILE`, `hc-admin import healthchecks-api --url URL --api-key KEY` and
 * `hc-admin export healthchecks --project ID` (docs/migrating.md). The import prints one JSON report on stdout; progress
 * goes to stderr (a bar on a terminal, a line per tenth otherwise); the export prints the dump on stdout.
 */
import { readFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import type { Redis } from 'ioredis';
import { config } from '../../shared/config.js';
import { AppError } from '../../shared/errors.js';
import { createRedis } from '../../shared/queues/connections.js';
import { closeQueues, openQueues, type Queues } from '../../shared/queues/index.js';
import { importDump, importPlan, type ImportReport } from '../../shared/migrate/import.js';
import { readAccount } from '../../shared/migrate/api-source.js';
import { planImport } from '../../shared/migrate/plan.js';
import { exportProject } from '../../shared/migrate/export.js';
import { printJson, type RegisterGroup } from './cli.js';
import { withDb } from './db.js';

/** How long to wait for Redis before leaving deadlines to the sweep, milliseconds. */
const REDIS_WAIT_MS = 3000;

interface DumpOptions {
  secretKey?: string;
  dryRun?: boolean;
}

interface ApiOptions {
  url: string;
  apiKey: string;
  project?: string;
  dryRun?: boolean;
}

/** A progress reporter on stderr: a bar on a terminal, otherwise a line at each tenth. */
function progressOn(what: string): (done: number, total: number) => void {
  let lastTenth = -1;
  return (done, total) => {
    if (process.stderr.isTTY) {
      const width = 30;
      const filled = Math.round((done / Math.max(total, 1)) * width);
      process.stderr.write(`\r${what} [${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${done}/${total}${done === total ? '\n' : ''}`);
      return;
    }
    const tenth = Math.floor((done * 10) / Math.max(total, 1));
    if (tenth !== lastTenth) process.stderr.write(`hc-admin: ${what}: ${done} of ${total}\n`);
    lastTenth = tenth;
  };
}

/** The service's queues when Redis answers soon, else undefined (the sweep then adds each deadline job as it nears). */
async function queuesIfReachable(): Promise<{ queues: Queues; redis: Redis } | undefined> {
  const redis = createRedis(config.redisUrl, 'web');
  redis.on('error', () => undefined);
  const ready = await Promise.race([
    new Promise<boolean>((resolve) => redis.once('ready', () => resolve(true))),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), REDIS_WAIT_MS).unref()),
  ]);
  if (ready) return { queues: openQueues(redis), redis };
  redis.disconnect();
  process.stderr.write('hc-admin: Redis does not answer; the workers\' sweep schedules the deadlines instead\n');
  return undefined;
}

/** Runs an import with the queues open when Redis answers, closing them after. */
async function withQueues(dryRun: boolean, work: (queues: Queues | undefined) => Promise<ImportReport>): Promise<ImportReport> {
  const open = dryRun ? undefined : await queuesIfReachable();
  try {
    return await work(open?.queues);
  } finally {
    if (open) {
      await closeQueues(open.queues);
      open.redis.disconnect();
    }
  }
}

async function readDumpFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new AppError(400, `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

/**
 * Adds the `import` and `export` groups.
 *
 * @param program - The root command.
 */
export const register: RegisterGroup = (program: Command) => {
  const imports = program.command('import').description('import projects from another service');
  imports
    .command('healthchecks')
    .description('import the JSON of Healthchecks\' "manage.py dumpdata auth.user accounts api"; prints a JSON report')
    .argument('<file>', 'the dump')
    .addOption(new Option('--secret-key <key>', "that site's SECRET_KEY: its API keys and badge URLs keep working").env('HC_REFERENCE_SECRET_KEY'))
    .option('--dry-run', 'print what would be imported and what conflicts; write nothing')
    .action(async (file: string, opts: DumpOptions) => {
      const text = await readDumpFile(file);
      const report = await withDb(() =>
        withQueues(Boolean(opts.dryRun), (queues) => importDump(text, opts.secretKey, { dryRun: opts.dryRun, queues, now: new Date(), progress: progressOn('checks') })),
      );
      printJson(report);
    });
  imports
    .command('healthchecks-api')
    .description("import a project through a Healthchecks site's Management API v3; prints a JSON report")
    .requiredOption('--url <url>', "the site's root, e.g. https://healthchecks.example.org")
    .requiredOption('--api-key <key>', "the project's read-write API key (it keeps working here)")
    .option('--project <id>', 'our project UUID to create or update (default: the same one on every run with this URL and key)')
    .option('--dry-run', 'print what would be imported; write nothing')
    .action(async (opts: ApiOptions) => {
      const read = await readAccount({ url: opts.url, apiKey: opts.apiKey, projectId: opts.project, progress: progressOn('checks read') });
      const plan = planImport(read.dump, undefined);
      const report = await withDb(() =>
        withQueues(Boolean(opts.dryRun), (queues) => importPlan(plan, { dryRun: opts.dryRun, queues, now: new Date(), progress: progressOn('checks') })),
      );
      printJson({ ...report, toSetUp: read.toSetUp });
    });
  program
    .command('export')
    .description('export data in another service\'s format')
    .command('healthchecks')
    .description('print a project as the JSON of Healthchecks\' dumpdata (for its loaddata, or our import)')
    .requiredOption('--project <id>', 'project UUID')
    .action(async (opts: { project: string }) => printJson(await withDb(() => exportProject(opts.project))));
};
