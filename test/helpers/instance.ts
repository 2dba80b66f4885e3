/**
 * A live instance for tests that drive it from outside, as a user's clients
 * would: the real web and worker processes (dist/server/main.js and
 * dist/workers/main.js) on a free port, against the run's MongoDB and Redis.
 */
import { freePort } from './services.js';
import { startNode, waitForOutput, type Child } from './processes.js';

/** A running web + worker pair. */
export interface Instance {
  /** `http://127.0.0.1:<port>`, also the instance's BASE_URL. */
  baseUrl: string;
  /** Stops both processes (SIGTERM, then waits for their exits). */
  stop(): Promise<void>;
}

/**
 * Starts web and worker and waits until both are ready.
 *
 * @throws Error with a process's output when it does not get ready within 20 s.
 */
export async function startInstance(): Promise<Instance> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = { PORT: String(port), BASE_URL: baseUrl };
  const children: Child[] = [startNode('server/main.js', env), startNode('workers/main.js', env)];
  const [web, worker] = children;
  await Promise.all([waitForOutput(web, '"msg":"listening"', 20_000), waitForOutput(worker, 'workers started', 20_000)]);
  return {
    baseUrl,
    stop: async () => {
      await Promise.all(children.map((child) => child.stop()));
    },
  };
}
