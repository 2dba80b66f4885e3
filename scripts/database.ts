/**
 * `node dist/scripts/database.js PORT DIR`: the embedded MongoDB-compatible server (embedded-mongo.ts) on 127.0.0.1:PORT with its
 * data under DIR, in the foreground until SIGTERM or SIGINT; scripts/services.sh runs it in the background for the bench and
 * for running the processes apart. Exits 1 with one stderr line when it cannot start.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedMongo } from './embedded-mongo.js';

const [portArg, dirArg] = process.argv.slice(2);
const port = Number(portArg);
if (!Number.isInteger(port) || port < 1 || port > 65535 || !dirArg) {
  process.stderr.write('usage: node dist/scripts/database.js PORT DIR\n');
  process.exit(1);
}
const dir = resolve(dirArg);
const bin = fileURLToPath(new URL('../../.data/bin/ferretdb', import.meta.url));
try {
  const server = await startEmbeddedMongo(port, { mongoDir: join(dir, 'mongo'), ferretdbBin: bin, ferretdbDir: join(dir, 'ferretdb2'), postgresDir: join(dir, 'documentdb') });
  process.stdout.write(`database: ${server.server} on 127.0.0.1:${port}, data in ${server.dataDir}\n`);
  const stop = () => void server.stop().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
} catch (err) {
  process.stderr.write(`database: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}\n`);
  process.exit(1);
}
