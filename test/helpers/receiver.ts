/**
 * A local HTTP receiver on 127.0.0.1 that records every request and answers
 * as the test says: a status, or `hang` (never answer; the client's timeout
 * or a killed worker ends the request).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as received. */
export interface ReceivedRequest {
  method: string;
  /** Path and query string. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How to answer the n-th request (0-based): a status (and body), or never. */
export type Reply = { status: number; body?: string } | 'hang';

/** A running receiver. */
export interface Receiver {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  requests: ReceivedRequest[];
  /** Requests answered to the end (the client read the answer's last byte off the socket buffer). */
  completed: number;
  close(): Promise<void>;
}

/**
 * Starts a receiver.
 *
 * @param reply - Answer to the n-th request; default 200 `{}`.
 */
export async function startReceiver(reply: (n: number, req: ReceivedRequest) => Reply = () => ({ status: 200 })): Promise<Receiver> {
  const receiver: Receiver = { url: '', requests: [], completed: 0, close: async () => undefined };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() };
      const n = receiver.requests.push(received) - 1;
      const answer = reply(n, received);
      if (answer === 'hang') return;
      res.on('finish', () => (receiver.completed += 1));
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body ?? '{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}

/** A receiver started before each test of a suite and closed after it, answering `answer` (reset to `initial` before each test; a test sets it). */
export function receiverPerTest(initial: Reply): { receiver: Receiver; answer: Reply } {
  const state = { receiver: undefined as unknown as Receiver, answer: initial };
  beforeEach(async () => {
    state.answer = initial;
    state.receiver = await startReceiver(() => state.answer);
  });
  afterEach(() => state.receiver.close());
  return state;
}

/** The JSON body of a received request. */
export function jsonBody(req: ReceivedRequest | undefined): Record<string, any> {
  if (!req) throw new Error('no request received');
  return JSON.parse(req.body) as Record<string, any>;
}

/** The form fields of a received `application/x-www-form-urlencoded` request. */
export function formBody(req: ReceivedRequest | undefined): Record<string, string> {
  if (!req) throw new Error('no request received');
  return Object.fromEntries(new URLSearchParams(req.body));
}
