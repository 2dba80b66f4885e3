/**
 * A local webhook receiver for the phases that measure alerts (alerts, recovery, window): it answers every
 * request `ok` and hands each alert to the phase, which keeps what it counts.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the receiver reads of an alert: its check, its status (`down`, `up`, `resumed`…) and its Idempotency-Key. */
export interface ReceivedAlert {
  uuid: string;
  status: string;
  key: string;
}

/** A started receiver: the webhook URL to give a channel, and how to stop it. */
export interface Receiver {
  url: string;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Starts the receiver on a free port of 127.0.0.1.
 *
 * @param onAlert - Called with each alert and its arrival (epoch milliseconds, taken when the request began).
 */
export async function startReceiver(onAlert: (alert: ReceivedAlert, atMs: number) => void): Promise<Receiver> {
  const server = createServer((req, res) => {
    const atMs = Date.now();
    void bodyOf(req).then((body) => {
      const { uuid, status } = JSON.parse(body) as { uuid: string; status: string };
      onAlert({ uuid, status, key: String(req.headers['idempotency-key']) }, atMs);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { url: `http://127.0.0.1:${port}/hook`, close };
}
