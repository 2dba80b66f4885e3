/**
 * Where the areas of the web app keep their templates and static files in the checkout (tsc copies neither to dist/):
 * each area folder of `server/pages/` (docs/architecture.md, "The web app's folders") has a `views/` folder of Eta
 * templates and may have a `static/` folder served at `/static/`. A template is named by its file name alone
 * (`check` for `checks/views/check.eta`), so a route or an `include` does not say which area holds it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** `server/pages/` of the checkout: from `dist/server/pages/kit/` four levels up. */
export const PAGES_SOURCE = fileURLToPath(new URL('../../../../server/pages/', import.meta.url));

/** Every folder named `name` under `server/pages/`, at any depth (`checks/views/`, `checks/list/views/`), sorted. */
function foldersNamed(name: string, dir = PAGES_SOURCE): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory()) continue;
    const full = path.join(dir, entry.name);
    if (entry.name === name) found.push(full);
    else found.push(...foldersNamed(name, full));
  }
  return found;
}

/**
 * Each template's file by its name, from every area's `views/` folder.
 *
 * @returns Name (file name without `.eta`) → absolute path.
 * @throws Error if two areas hold a template of the same name (a name must say one file).
 */
export function viewFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const dir of foldersNamed('views')) {
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.eta'))) {
      const name = file.slice(0, -'.eta'.length);
      const other = files.get(name);
      if (other !== undefined) throw new Error(`two templates named ${name}: ${other} and ${path.join(dir, file)}`);
      files.set(name, path.join(dir, file));
    }
  }
  return files;
}

/**
 * The areas' `static/` folders, all served at `/static/` (so an asset's address does not say its area).
 *
 * @returns Absolute paths, `kit/static/` among them.
 * @throws Error if two folders hold a file of the same name (one address would hide the other).
 */
export function staticFolders(): string[] {
  const dirs = foldersNamed('static');
  const seen = new Map<string, string>();
  for (const dir of dirs) {
    for (const file of fs.readdirSync(dir)) {
      const other = seen.get(file);
      if (other !== undefined) throw new Error(`two static files named ${file}: in ${other} and ${dir}`);
      seen.set(file, dir);
    }
  }
  return dirs;
}
