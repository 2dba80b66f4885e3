/**
 * Which signal an HTTP ping applies, given the check as read (docs/pinging.md, "Recording a ping"): shared by the web process and the replay of journaled
 * pings (shared/pings/journal.ts), which must decide the same way.
 */
import { classifyText } from '../domain/keywords.js';
import type { Signal } from '../domain/status.js';
import type { ResolveSignal } from './record.js';

/** Lenient UTF-8: invalid bytes become U+FFFD (docs/pinging.md, "Body keywords"). */
const lenientUtf8 = new TextDecoder('utf-8');

/**
 * The methods and body keyword steps of docs/pinging.md, "Recording a ping", re-run against the check whenever it is re-read after a concurrent write: `methods=POST` ignores other methods;
 * `filter_http_body` reclassifies any action from the leniently decoded body (docs/pinging.md, "Body keywords"). Email filters play no part here.
 * @param action - The route's action with the exit status applied (docs/pinging.md, "Recording a ping").
 * @param body - The request body, null when none was sent.
 */
export function resolverOf(action: Signal, method: string, body: Buffer | null): ResolveSignal {
  let text: string | undefined;
  return (check) => {
    if (check.methods === 'POST' && method !== 'POST') return 'ign';
    if (!check.filterHttpBody) return action;
    text ??= body ? lenientUtf8.decode(body) : '';
    return classifyText(text, check);
  };
}
