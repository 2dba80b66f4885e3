/**
 * A local HTTP server answering as the real Healthchecks did: the Management API answers recorded in
 * test/fixtures/healthchecks/api-answers.json, with that site's root replaced by this server's, and 401 for another key.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ANSWERS, SECRETS } from './healthchecks-fixture.js';

/** A running recorded reference. */
export interface RecordedReference {
  url: string;
  /** Paths asked, in order. */
  asked: string[];
  close(): Promise<void>;
}

/** Starts the server on a free loopback port. */
export async function startRecordedReference(): Promise<RecordedReference> {
  const asked: string[] = [];
  let root = '';
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    asked.push(path);
    const known = Object.values(SECRETS.api_keys).some((k) => k.rw === req.headers['x-api-key']);
    const answer = ANSWERS[path];
    if (!known) {
      res.writeHead(401, { 'Content-Type': 'application/json' }).end('{"error": "wrong api key"}');
      return;
    }
    if (!answer) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not recorded');
      return;
    }
    res.writeHead(answer.status, { 'Content-Type': answer.type }).end(answer.body.replaceAll(SECRETS.site_root, root));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: root, asked, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
