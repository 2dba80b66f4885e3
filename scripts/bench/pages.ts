/**
 * The bench's `pages` phase: the web app's server time and page sizes (README "Benchmarks"). It starts a web process
 * of its own (no worker: nothing here needs one), makes a user and a project in the bench's database, signs in over
 * HTTP with the sign-in form and its CSRF token, and hands each measurement a {@link PagesStage}. Times are measured
 * over HTTP to 127.0.0.1 with sequential requests: the time to the whole answer, as the server gives it.
 *
 * The measurements, each in a file of its own ({@link MEASUREMENTS}): the checks list (pages-list.ts), the check page
 * (pages-check.ts), the charts (pages-charts.ts), the check actions (check-actions.ts), the docs and the wall
 * (docs-wall-pages.ts) and the email reports (email-reports.ts).
 */
import { Project } from '../../shared/models/project.js';
import { createOwnedProject } from '../../shared/services/members.js';
import { createUser } from '../../shared/services/users.js';
import type { Out } from './common.js';
import { startWeb } from './processes.js';
import { benchListPages } from './pages-list.js';
import { benchCheckPage } from './pages-check.js';
import { benchCharts } from './pages-charts.js';
import { reportCheckActions } from './check-actions.js';
import { benchDocsAndWall } from './docs-wall-pages.js';
import { benchEmailReports } from './email-reports.js';
import type { PagesStage } from './pages-stage.js';
import { PAGE_MEASURES, type BenchOptions } from './options.js';

export type { PagesStage } from './pages-stage.js';

/** The measurements of the phase by their `--page-measures` names, run in this order on the same stage. */
const MEASUREMENTS: Record<(typeof PAGE_MEASURES)[number], (stage: PagesStage) => Promise<void>> = {
  list: benchListPages,
  check: benchCheckPage,
  charts: benchCharts,
  actions: reportCheckActions,
  docs: benchDocsAndWall,
  reports: benchEmailReports,
};

const EMAIL = 'bench@example.com';
const PASSWORD = 'bench password, long enough';

/** The `name=value` pairs of a response's Set-Cookie headers, joined for a Cookie header. */
function cookiesOf(res: Response): string {
  return res.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
}

/**
 * Signs in over HTTP as the sign-in form does (GET the form for its CSRF token, POST it).
 *
 * @returns The session's Cookie header value.
 * @throws Error when the form has no token or the sign-in does not redirect (303).
 */
async function signIn(origin: string): Promise<string> {
  const form = await fetch(`${origin}/signin/`);
  const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1];
  if (!token) throw new Error('pages: no CSRF token on the sign-in page');
  let cookie = cookiesOf(form);
  const res = await fetch(`${origin}/signin/`, {
    method: 'POST', redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: token, email: EMAIL, password: PASSWORD }),
  });
  if (res.status !== 303) throw new Error(`pages: sign-in answered ${res.status}`);
  cookie = cookiesOf(res) || cookie;
  return cookie;
}

/**
 * Runs the phase: a web process with `env` (the bench's database and queue prefix), a user owning a project, a
 * signed-in session, then each measurement in turn. The database connection is the caller's.
 *
 * @param opts - `webCpu` pins the web process (undefined: unpinned); `pageMeasures` and `pageRequests` choose what runs.
 */
export async function reportPages(env: Record<string, string>, opts: BenchOptions, out: Out): Promise<void> {
  const web = await startWeb(env, opts.webCpu);
  try {
    const user = await createUser(EMAIL, PASSWORD, new Date());
    if (!user) throw new Error(`pages: ${EMAIL} exists`);
    const { project } = await createOwnedProject(user._id, 'bench pages', new Date());
    await Project.updateOne({ _id: project._id }, { $set: { checkLimit: 100_000 } });
    const stage: PagesStage = { origin: web.origin, cookie: await signIn(web.origin), projectId: project._id, out, requests: opts.pageRequests };
    out('web pages, server time over HTTP (sequential requests to 127.0.0.1), milliseconds, and the answer\'s size:');
    for (const name of PAGE_MEASURES) if (opts.pageMeasures.includes(name)) await MEASUREMENTS[name](stage);
    out('');
  } finally {
    await web.child.stop();
  }
}
