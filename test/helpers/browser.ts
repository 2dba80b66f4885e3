/**
 * A real browser for the web app's tests: Debian's chromium (or CHROMIUM_PATH)
 * driven by puppeteer-core, which never downloads a browser of its own; and the
 * app under test listening on a free port of 127.0.0.1.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser } from 'puppeteer-core';
import { createWebHandler } from '../../server/app.js';
import type { WebOptions } from '../../server/pages/kit/options.js';
import { PingJournal } from '../../shared/pings/journal.js';
import { config } from '../../shared/config.js';
import { testContext } from './hooks.js';
import { webOptions } from './web.js';

/** The browser binary: CHROMIUM_PATH, or Debian's package (scripts/provision.sh test installs it). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where tests save what a person may want to look at (screenshots): `.data/test-output/`, or TEST_OUTPUT_DIR. */
export const TEST_OUTPUT_DIR =
  process.env.TEST_OUTPUT_DIR ?? fileURLToPath(new URL('../../../.data/test-output/', import.meta.url));

/**
 * Launches headless chromium.
 *
 * @throws Error with the command that installs it when the binary is missing.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`no browser at ${CHROMIUM_PATH}: run "bash scripts/provision.sh test" (apt-get install chromium) or set CHROMIUM_PATH`);
  }
  mkdirSync(TEST_OUTPUT_DIR, { recursive: true });
  // --no-sandbox: CI runs as root, where chromium's sandbox cannot start.
  return puppeteer.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/** The app on a free port, as the web process serves it (with a ping journal). */
export interface Served {
  /** `http://127.0.0.1:<port>`, or `http://localhost:<port>` */
  origin: string;
  close(): Promise<void>;
}

/** How a test serves the app. */
export interface ServeOptions {
  /** Name it `http://localhost:<port>` and make that its BASE_URL: WebAuthn takes a host name, not an IP address, as the relying party. */
  atLocalhost?: boolean;
  /** The pages' settings, given the origin (BASE_URL is the origin); the run's config when absent. */
  web?: (origin: string) => Partial<WebOptions>;
}

/** Serves a new app with the run's connections on a free port of 127.0.0.1. */
export async function serveApp({ atLocalhost = false, web }: ServeOptions = {}): Promise<Served> {
  const { redis, queues } = testContext();
  const journal = new PingJournal(redis, config.queuePrefix, config.pingJournalLeaseMs);
  let handler: RequestListener = (_req, res) => res.writeHead(503).end();
  const server: Server = createServer((req, res) => handler(req, res));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://${atLocalhost ? 'localhost' : '127.0.0.1'}:${port}`;
  const pages = atLocalhost || web ? webOptions({ baseUrl: origin, ...web?.(origin) }) : undefined;
  handler = createWebHandler({ clock: () => new Date(), redis, queues, journal, web: pages });
  return {
    origin,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
