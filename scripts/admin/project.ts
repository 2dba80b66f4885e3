/**
 * `hc-admin project …`: creating projects and showing their keys once; adding members (docs/web-app.md).
 */
import { Option, type Command } from 'commander';
import { createProject } from '../../shared/services/projects.js';
import { addMember } from '../../shared/services/members.js';
import { normaliseEmail } from '../../shared/services/users.js';
import { Project } from '../../shared/models/project.js';
import { User } from '../../shared/models/user.js';
import { ROLES, type Role } from '../../shared/models/membership.js';
import { AppError } from '../../shared/errors.js';
import { printJson, wholeNumber, type RegisterGroup } from './cli.js';
import { withDb } from './db.js';

interface CreateOptions {
  name: string;
  pingLogLimit?: number;
  checkLimit?: number;
}

interface AddMemberOptions {
  project: string;
  email: string;
  role: Role;
}

/** Makes an existing user a member of an existing project. @throws AppError(404) naming what is unknown. */
async function addMemberByEmail(opts: AddMemberOptions): Promise<{ project: string; email: string; role: Role }> {
  const email = normaliseEmail(opts.email);
  const [project, user] = await Promise.all([Project.exists({ _id: opts.project }), User.findOne({ email }).lean()]);
  if (!project) throw new AppError(404, `no project with id ${opts.project}`);
  if (!user) throw new AppError(404, `no user with email ${email} (create one with hc-admin user create)`);
  await addMember(opts.project, user._id, opts.role, new Date());
  return { project: opts.project, email, role: opts.role };
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
  group
    .command('add-member')
    .description('give a user a role in a project (an existing project gets its owner this way); prints JSON')
    .requiredOption('--project <id>', 'project id')
    .requiredOption('--email <email>', "the user's email address")
    .addOption(new Option('--role <role>', 'owner, rw (read-write) or ro (read-only)').choices(ROLES).default('owner'))
    .action(async (opts: AddMemberOptions) => printJson(await withDb(() => addMemberByEmail(opts))));
};
