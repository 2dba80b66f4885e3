/**
 * Integration messages as a project's members read them: what happened and what they can do, without the operator's
 * settings (INTEGRATIONS_ALLOW_PRIVATE_IPS, SHELL_ENABLED). The API keeps its own wording; a page shows this one and
 * the log keeps the operator's hint (docs/alerts.md, "Private addresses"; docs/web-app.md, Integrations).
 */
import { logger } from '../../../shared/logger.js';

const log = logger.child({ module: 'integration-messages' });

/** An operator's hint inside a message, and what a member reads instead. */
const OPERATOR_HINTS: ReadonlyArray<[RegExp, string]> = [
  [/;?\s*set INTEGRATIONS_ALLOW_PRIVATE_IPS=true to allow private targets/g, ': this server sends alerts to public addresses only'],
  [/\s*\((?:set )?SHELL_ENABLED(?:=true)?\)/g, ''],
];

/** The API's word for an integration, in the phrases a page shows. */
const API_WORDS: ReadonlyArray<[RegExp, string]> = [
  [/^invalid channel value: /, ''],
  [/is not a channel of this project/g, 'is not an integration of this project'],
];

/**
 * `message` without operator settings and in the page's words (integration, not channel); when it had an operator setting, the original goes to the log (info) with `context`.
 *
 * @param message - A provider's or validator's message (`refused to connect to 10.0.0.1 (private address); set …`).
 * @param context - Fields for the log line (a channel id, say).
 * @returns The message for the page.
 */
export function forMembers(message: string, context: Record<string, unknown> = {}): string {
  let shown = message;
  for (const [hint, instead] of OPERATOR_HINTS) shown = shown.replace(hint, instead);
  if (shown !== message) log.info({ ...context, message }, 'integration message shown without its operator setting');
  for (const [words, instead] of API_WORDS) shown = shown.replace(words, instead);
  return shown;
}
