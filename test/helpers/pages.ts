/**
 * The web app's pages in a real browser, set up the same way by every browser test of server/pages: chromium and
 * the app launched once per file ({@link useBrowser}), a tab of its own per person ({@link WebPage}: its own cookies,
 * its script errors kept), signed in and inside a new project ({@link signInToNewProject}).
 */
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser, serveApp, type Served, type ServeOptions } from './browser.js';
import { jsonOf, runCli } from '../scripts/hc-admin/run-cli.js';

/** The browser and the app of one test file; valid from its `before` hook on. */
export interface BrowserFixture {
  browser: Browser;
  /** `http://127.0.0.1:<port>` of the app in this process (serveApp). */
  origin: string;
}

/**
 * Registers mocha hooks that launch chromium and serve the app in this process before the file's tests, and close
 * both after them.
 *
 * @param serve - How to serve the app (serveApp's options).
 * @returns The fixture, filled in by the `before` hook.
 */
export function useBrowser(serve: ServeOptions = {}): BrowserFixture {
  const fixture = {} as BrowserFixture;
  let served: Served | undefined;
  before(async () => {
    fixture.browser = await launchBrowser();
    served = await serveApp(serve);
    fixture.origin = served.origin;
  });
  after(async () => {
    await fixture.browser?.close();
    await served?.close();
  });
  return fixture;
}

/** Milliseconds a navigation or wait may take when it names no timeout. */
const STEP_TIMEOUT_MS = 60_000;

/** The desktop viewport of the screenshots, in CSS pixels. */
const DESKTOP = { width: 1100, height: 900 };

/** One person's tab: a browser context of its own (cookies, session) on `origin`. */
export class WebPage {
  /** Uncaught script errors of the pages seen so far; a test expects none. */
  readonly errors: string[] = [];

  private constructor(
    readonly page: Page,
    readonly origin: string,
  ) {
    page.on('pageerror', (err) => this.errors.push(String(err)));
  }

  /**
   * Opens a tab in a new browser context.
   *
   * @param viewport - CSS pixels; a desktop screen by default.
   */
  static async open(browser: Browser, origin: string, viewport = DESKTOP): Promise<WebPage> {
    const page = await (await browser.createBrowserContext()).newPage();
    await page.setViewport(viewport);
    // Navigations and waits without a timeout of their own get a minute: a CI machine under load can take puppeteer's 30 s.
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    return new WebPage(page, origin);
  }

  /** Opens `path` (from `/`) of the origin. */
  async goto(path: string): Promise<void> {
    await this.page.goto(`${this.origin}${path}`);
  }

  /** The path of the page shown. */
  path(): string {
    return new URL(this.page.url()).pathname;
  }

  /** Replaces the text of the field at `selector`, typing it as a person does. */
  async fill(selector: string, text: string): Promise<void> {
    await this.page.$eval(selector, (el) => ((el as HTMLInputElement).value = ''));
    await this.page.type(selector, text);
  }

  /** Clicks `selector` (a submit button, a link) and waits for the page it leads to. */
  async submit(selector: string): Promise<void> {
    await Promise.all([this.page.waitForNavigation(), this.page.click(selector)]);
  }

  /** Signs in with the form on the page shown (the sign-in page, or a page that redirected to it). */
  async signIn(email: string, password: string): Promise<void> {
    await this.fill('#email', email);
    await this.fill('#password', password);
    await this.submit('form.sign-in button[type=submit]');
  }

  /**
   * Creates a project from the project list shown after sign-in.
   *
   * @returns The project's path, `/projects/<id>/` (the page now shown).
   */
  async createProject(name: string): Promise<string> {
    await this.fill('#project-name', name);
    await this.submit('form[action="/projects/"] button');
    return this.path();
  }

  /** The text of the element at `selector`. */
  text(selector: string): Promise<string> {
    return this.page.$eval(selector, (el) => el.textContent ?? '');
  }
}

/** A person signed in and inside a project of their own. */
export interface InProject {
  web: WebPage;
  /** The project's path, `/projects/<id>/`. */
  base: string;
}

/**
 * Creates a user with the real `hc-admin user create` (in the test database), signs them in through the sign-in page
 * in a new tab and creates a project.
 *
 * @param viewport - CSS pixels; a desktop screen by default.
 * @throws Error when hc-admin fails (with its output) or a page is not the one expected.
 */
export async function signInToNewProject(fixture: BrowserFixture, email: string, projectName: string, viewport = DESKTOP): Promise<InProject> {
  const created = await runCli(['user', 'create', '--email', email]);
  if (created.code !== 0) throw new Error(`hc-admin user create exited ${created.code}: ${created.stderr}`);
  const { password } = jsonOf(created) as { password: string };
  const web = await WebPage.open(fixture.browser, fixture.origin, viewport);
  await web.goto('/signin/');
  await web.signIn(email, password);
  if (web.path() !== '/projects/') throw new Error(`signed in to ${web.path()}, not the project list`);
  return { web, base: await web.createProject(projectName) };
}
