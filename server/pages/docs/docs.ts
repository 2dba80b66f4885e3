/**
 * The documentation in the web app (docs/development.md): `/docs/` lists the Markdown files of the checkout's `docs/`
 * and `/docs/<name>` renders `docs/<name>.md` with markdown-it inside the app's layout, for anyone (no sign-in).
 * Raw HTML in the Markdown is escaped (`html: false`), headings get GitHub-style ids so `#anchors` work, and links
 * between docs (`configuration.md#x`) point at their served pages. Only names matching {@link DOC_NAME} that are
 * files of `docs/` are read, so no path leaves it; any other name is a 404 page.
 */
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';
import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { AppError } from '../../../shared/errors.js';
import { PAGE_HEADERS, render } from '../kit/render.js';

/** `docs/` of the checkout: from `dist/server/pages/docs/` four levels up. */
const DOCS = fileURLToPath(new URL('../../../../docs/', import.meta.url));
/** The names a doc may have: `docs/<name>.md`. */
export const DOC_NAME = /^[a-z0-9-]+$/;
/** A link to another doc, `name.md` with an optional `#anchor`, as GitHub reads it. */
const DOC_LINK = /^([a-z0-9-]+)\.md(#.*)?$/;

/** GitHub's heading id: lower case, punctuation dropped, spaces as hyphens (`Failure threshold: x` → `failure-threshold-x`). */
export function headingId(text: string): string {
  return text.trim().toLowerCase().replace(/[^\p{L}\p{N}\p{M}_\- ]/gu, '').replace(/ /g, '-');
}

/** Gives each heading its id (a repeated one gets `-1`, `-2`, as on GitHub) and points `x.md#a` links at `x#a`. */
function docsPlugin(md: MarkdownIt): void {
  md.core.ruler.push('doc_ids_and_links', (state) => {
    const seen = new Map<string, number>();
    const tokens = state.tokens;
    tokens.forEach((token, i) => {
      if (token.type === 'heading_open') {
        const base = headingId((tokens[i + 1]?.children ?? []).map((child: Token) => child.content).join(''));
        const n = seen.get(base) ?? 0;
        seen.set(base, n + 1);
        token.attrSet('id', n === 0 ? base : `${base}-${n}`);
      }
      for (const child of token.children ?? []) {
        const href = child.type === 'link_open' ? child.attrGet('href') : null;
        const match = href === null ? null : DOC_LINK.exec(href);
        if (match) child.attrSet('href', `${match[1]}${match[2] ?? ''}`);
      }
    });
  });
}

const md = new MarkdownIt({ html: false }).use(docsPlugin);

/** A doc of the listing: its name and its title (the first `# ` line, or the name). */
export interface DocEntry {
  name: string;
  title: string;
}

/** The docs there are, by title. */
async function listDocs(): Promise<DocEntry[]> {
  const files = (await readdir(DOCS)).filter((file) => file.endsWith('.md') && DOC_NAME.test(file.slice(0, -3)));
  const docs = await Promise.all(files.map(async (file) => ({ name: file.slice(0, -3), title: titleOf(await readFile(DOCS + file, 'utf8'), file.slice(0, -3)) })));
  return docs.sort((a, b) => a.title.localeCompare(b.title));
}

/** The text of a Markdown file's first level-1 heading, or `fallback`. */
function titleOf(text: string, fallback: string): string {
  return /^# (.+)$/m.exec(text)?.[1]?.trim() ?? fallback;
}

/**
 * The Markdown of `docs/<name>.md`.
 * @throws AppError(404) for a name outside {@link DOC_NAME} or not a file of `docs/`.
 */
async function readDoc(name: string): Promise<string> {
  const names = (await readdir(DOCS)).filter((file) => file.endsWith('.md')).map((file) => file.slice(0, -3));
  if (!DOC_NAME.test(name) || !names.includes(name)) throw new AppError(404, `no such page in the docs: ${name}`);
  return readFile(`${DOCS}${name}.md`, 'utf8');
}

/** `docs/screenshots/` at `/docs/screenshots/`: the pictures the docs show. Mounted outside the session. */
export function docsFilesRouter(): Router {
  const router = Router({ strict: true, caseSensitive: true });
  router.use('/docs/screenshots', express.static(`${DOCS}screenshots/`, { index: false, redirect: false, setHeaders: (res) => res.set(PAGE_HEADERS).set('Cache-Control', 'no-cache') }));
  return router;
}

/** `/docs/` (the list) and `/docs/<name>` (one doc rendered), for anyone. */
export function docsRouter(): Router {
  const router = Router({ strict: true, caseSensitive: true });
  router.get('/docs', (_req, res) => res.redirect(301, '/docs/'));
  router.get('/docs/', async (req, res) => {
    render(req, res, 'docs-index', { title: 'Docs', docs: await listDocs() });
  });
  router.get('/docs/:name', async (req, res) => {
    const text = await readDoc(String(req.params.name));
    render(req, res, 'doc', { title: titleOf(text, String(req.params.name)), html: md.render(text) });
  });
  return router;
}
