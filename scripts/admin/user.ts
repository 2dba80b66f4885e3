/**
 * `hc-admin user …`: creating the web app's users (docs/web-app.md), the first one on a fresh install.
 */
import { Option, type Command } from 'commander';
import { config } from '../../shared/config.js';
import { AppError } from '../../shared/errors.js';
import { createUser, generatePassword } from '../../shared/services/users.js';
import { printJson, type RegisterGroup } from './cli.js';
import { withDb } from './db.js';

interface CreateOptions {
  email: string;
  passwordStdin?: boolean;
}

/** Standard input up to its end, less one trailing newline. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/**
 * Adds `user create --email EMAIL [--password-stdin]`, which prints `{"id", "email", "sign_in_url", "password"?}`:
 * the password only when generated (shown this once), and where to sign in.
 *
 * @param program - The root command.
 */
export const register: RegisterGroup = (program: Command) => {
  const group = program.command('user').description('manage web app users');
  group
    .command('create')
    .description('create a user who signs in with email and password; prints JSON with where to sign in')
    .requiredOption('--email <email>', 'the address the user signs in with')
    .addOption(new Option('--password-stdin', 'read the password from standard input (default: generate one and print it once)'))
    .action(async (opts: CreateOptions) => {
      const password = opts.passwordStdin ? await readStdin() : generatePassword();
      const user = await withDb(() => createUser(opts.email, password, new Date()));
      if (!user) throw new AppError(409, 'a user with this email address already exists');
      printJson({
        id: user._id,
        email: user.email,
        sign_in_url: `${config.baseUrl}/signin/`,
        ...(opts.passwordStdin ? {} : { password }),
      });
    });
};
