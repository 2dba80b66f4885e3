/** From a validated payload's alerting-rule fields to stored check fields (docs/alerting-rules.md), and the checks `depends_on` needs. */
import { Check, type CheckDoc } from '../../shared/models/check.js';
import { AppError } from '../../shared/errors.js';
import { VALIDATION_PREFIX } from '../schemas/parse.js';
import type { CheckRulesInput } from '../schemas/check-rules.js';

/** Check field of each rule field; `null` is stored as given (the rule off). */
const RULES: Array<[keyof CheckRulesInput, keyof CheckDoc]> = [
  ['fail_threshold', 'failThreshold'],
  ['fail_window', 'failWindow'],
  ['min_duration', 'minDuration'],
  ['min_interval', 'minInterval'],
];

/** The rule fields a payload writes (absent ones left out); a new threshold or window starts the failure count again; `depends_on` [] is null. */
export function ruleFieldsOf(input: CheckRulesInput): Partial<CheckDoc> {
  const set: Record<string, unknown> = {};
  for (const [from, to] of RULES) if (input[from] !== undefined) set[to] = input[from];
  if (input.fail_threshold !== undefined || input.fail_window !== undefined) set.failRun = null;
  if (input.depends_on !== undefined) set.dependsOn = input.depends_on?.length ? [...new Set(input.depends_on)] : null;
  return set;
}

function invalid(problem: string): AppError {
  return new AppError(400, `${VALIDATION_PREFIX}depends_on ${problem}`);
}

/**
 * Checks a payload's `depends_on` for the check `checkId` (null when creating): every UUID a check of the project, not the check itself, and no
 * cycle through the project's other dependencies.
 *
 * @throws AppError(400) `json validation error: depends_on names the check itself`, `... names an unknown check: <uuid>`,
 *   `... names a check of another project: <uuid>` or `... closes a cycle`.
 */
export async function checkDependsOn(projectId: string, checkId: string | null, dependsOn: string[] | null | undefined): Promise<void> {
  if (!dependsOn?.length) return;
  const parents = [...new Set(dependsOn)];
  if (checkId !== null && parents.includes(checkId)) throw invalid('names the check itself');
  const found = new Map((await Check.find({ _id: { $in: parents } }, { projectId: 1 }).lean<Pick<CheckDoc, '_id' | 'projectId'>[]>()).map((c) => [c._id, c]));
  for (const id of parents) {
    const parent = found.get(id);
    if (!parent) throw invalid(`names an unknown check: ${id}`);
    if (parent.projectId !== projectId) throw invalid(`names a check of another project: ${id}`);
  }
  if (checkId !== null && (await reaches(projectId, parents, checkId))) throw invalid('closes a cycle');
}

/** Whether following the project's `dependsOn` links from `from` reaches `target` (the check being written). */
async function reaches(projectId: string, from: readonly string[], target: string): Promise<boolean> {
  const linked = await Check.find({ projectId, dependsOn: { $exists: true, $ne: null } }, { dependsOn: 1 }).lean<Pick<CheckDoc, '_id' | 'dependsOn'>[]>();
  const links = new Map(linked.map((c) => [c._id, c.dependsOn ?? []]));
  const seen = new Set<string>();
  const stack = [...from];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (id === target) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(links.get(id) ?? []));
  }
  return false;
}
