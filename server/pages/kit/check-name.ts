/** How every page names a check: its name, or "unnamed" when it has none (never its UUID, which is a secret enough to ping it). */

/** The word shown for a check without a name. */
export const UNNAMED = 'unnamed';

/** The check's name as pages show it: `name` trimmed, or {@link UNNAMED} when blank. */
export function checkName(check: { name?: string | null }): string {
  const name = (check.name ?? '').trim();
  return name === '' ? UNNAMED : name;
}
