/**
 * `hc-admin project …`: creating projects and showing their keys once.
 */
import type { Command } from 'commander';
import { createProject } from '../../shared/services/projects.js';
import { printJson, wholeNumber, type RegisterGroup } from './cli.js';
import { withDb } from './db.js';

interface CreateOptions {
  name: string;
  pingLogLimit?: number;
  checkLimit?: number;
}

/**
 * Adds `project create --name NAME [--ping-log-limit N] [--check-limit N]`,
 * which prints `{"id", "name", "api_key", "api_key_readonly", "ping_key"}`.
 * The plain keys are shown only here; MongoDB keeps the API keys' digests.
 *
 * @param program - The root command.
 */
export const register: RegisterGroup = (program: Command) => {
  const group = program.command('project').description('manage projects');
  group
    .command('create')
    .description('create a project and print its id and keys as JSON')
    .requiredOption('--name <name>', 'project name')
    .option('--ping-log-limit <n>', 'pings kept per check (default DEFAULT_PING_LOG_LIMIT, 100)', wholeNumber(1))
    .option('--check-limit <n>', 'checks the project may hold (default DEFAULT_CHECK_LIMIT, 10000)', wholeNumber(0))
    .action(async (opts: CreateOptions) => {
      const created = await withDb(() =>
        createProject({ name: opts.name, pingLogLimit: opts.pingLogLimit, checkLimit: opts.checkLimit }),
      );
      printJson({
        id: created.project._id,
        name: created.project.name,
        api_key: created.apiKey,
        api_key_readonly: created.apiKeyReadonly,
        ping_key: created.pingKey,
      });
    });
};
