/**
 * The one rule for text a client sends (docs/security.md, Text from clients): a NUL character or an unpaired UTF-16
 * surrogate is refused wherever it appears, so every MongoDB-compatible server answers the same (some cannot store a
 * NUL; a lone surrogate cannot be encoded as UTF-8 and would be stored altered). Anything else, control characters
 * included, is stored as sent. Pure: no I/O.
 */

/** A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What is wrong with a text, in words after its field's name (`contains a NUL character`); null when it may be stored. */
export function textProblemOf(text: string): string | null {
  const found = UNSTORABLE.exec(text);
  if (!found) return null;
  return found[0] === '\u0000' ? 'contains a NUL character' : 'contains an unpaired surrogate (not valid Unicode)';
}

/** A refused text: where it is (`name`, `value.url_down`, `unique[0]`) and what is wrong with it. */
export interface TextProblem {
  path: string;
  problem: string;
}

/**
 * The first text in a parsed JSON value or form (objects' keys and values and arrays' items, depth first, in order)
 * that {@link textProblemOf} refuses; null when there is none.
 * @param path - The value's own name; '' for a whole body.
 */
export function firstTextProblem(value: unknown, path = ''): TextProblem | null {
  if (typeof value === 'string') {
    const problem = textProblemOf(value);
    return problem ? { path: path || 'the body', problem } : null;
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = firstTextProblem(item, `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const name = path ? `${path}.${key}` : key;
      const problem = textProblemOf(key);
      if (problem) return { path: name, problem: `has a name that ${problem}` };
      const found = firstTextProblem(item, name);
      if (found) return found;
    }
  }
  return null;
}
