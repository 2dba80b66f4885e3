#!/usr/bin/env node
/**
 * hc-admin: the administration CLI (`npx hc-admin …`, or `node dist/scripts/hc-admin.js …`).
 *
 * Contract other tools rely on: on success, stdout carries only the command's
 * JSON and the exit status is 0; on any failure (bad option, unknown id,
 * MongoDB unreachable, bad configuration) the exit status is non-zero
 * (2 bad usage, 1 otherwise) and stderr carries exactly one line about it.
 *
 * Every run first writes `hc-admin: database <host:port/db> (<source>)` on
 * stderr, and `--help` says the same: a project created in another database
 * than the service's is unknown to the service (every API call: "wrong api key").
 *
 * Command groups live in scripts/admin/, one module each exporting
 * `register`; add a group with one module and one line in the list below.
 */
import { createProgram, reportFailure } from './admin/cli.js';

// stdout is a machine interface and pino writes to stdout: service logs must not mix in.
// Set before the groups' imports load shared/config.ts.
process.env.LOG_LEVEL = 'silent';

try {
  const program = createProgram();
  const groups = await Promise.all([
    import('./admin/project.js'),
    import('./admin/channel.js'),
    import('./admin/channel-test.js'),
    import('./admin/user.js'),
    import('./admin/migrate.js'),
  ]);
  for (const group of groups) group.register(program);
  const { config } = await import('../shared/config.js');
  const { describeMongoUri } = await import('../shared/unreachable.js');
  const source = config.mongodbUriGiven ? 'from MONGODB_URI' : 'MONGODB_URI is unset: the default';
  const database = `${describeMongoUri(config.mongodbUri)} (${source})`;
  program.addHelpText(
    'after',
    `\nDatabase: ${database}.\nRun hc-admin with the same MONGODB_URI as the service, or the service will not know what it creates.`,
  );
  process.stderr.write(`hc-admin: database ${database}\n`);
  await program.parseAsync(process.argv);
} catch (err) {
  process.exitCode = reportFailure(err);
}
