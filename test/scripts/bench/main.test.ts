/**
 * `npm run bench` end to end at a tiny size (scripts/bench/main.ts and options.ts): its options and the tables it
 * prints (docs/benchmarks.md), on the test run's MongoDB server and Redis, in the database and under the key
 * prefix the bench makes for itself and removes. Figures vary; what is checked is that every row is printed.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { testContext } from '../../helpers/hooks.js';

const run = promisify(execFile);

/**
 * Runs the compiled bench with `args` on the test run's MongoDB server and Redis, without REFERENCE_* settings.
 *
 * @throws The error of execFile (its `code`, `stdout` and `stderr`) when the bench exits non-zero.
 */
function bench(args: string[]): Promise<{ stdout: string; stderr: string }> {
  const { mongoUri, redisUrl } = testContext().services;
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('REFERENCE_')));
  return run(process.execPath, ['dist/scripts/bench/main.js', ...args], { env: { ...env, MONGODB_URI: mongoUri, REDIS_URL: redisUrl } });
}

/** The bench's exit code and stderr when it fails; undefined when it succeeds. */
const failureOf = (args: string[]): Promise<{ code: number; stderr: string } | undefined> =>
  bench(args).then(() => undefined, (err: { code: number; stderr: string }) => err);

describe('npm run bench (scripts/bench/main.ts) at a tiny size', function () {
  this.timeout(180_000);

  it('prints the throughput, lateness and scale tables, unpinned with --web-cpu none', async () => {
    const { stdout } = await bench([
      '--phases', 'throughput,lateness,scale', '--checks', '3', '--scale', '50', '--duration', '1', '--connections', '2', '--trials', '1', '--web-cpu', 'none',
    ]);
    expect(stdout).to.match(/^ping throughput: 3 checks, 2 connections, 1 s each, unpinned$/m);
    for (const row of ['ping handler', 'ping handler, answered from the journal \\(PING_ACK_MS=0\\)', 'bare node:http']) {
      expect(stdout).to.match(new RegExp(`^\\| ${row} \\| \\d+ \\| `, 'm'));
    }
    expect(stdout).to.match(/^answered from the journal: 200 responses \d+; pings stored \d+; MongoDB caught up [\d.]+ s after the load ended/m);
    expect(stdout).to.match(/^\| flip stored, 3 checks pinged at once \(due within the pinging time\) \| 3 \| \d+ \| \d+ \| \d+ \|$/m);
    expect(stdout).to.match(/^\| flip stored, one check alone \(1 trials\) \| 1 \| /m);
    expect(stdout).to.match(/^\| Redis bytes per check \(its one delayed deadline job\) \| \d+ \|$/m);
    expect(stdout).to.match(/^\| ping p50 at 3 checks \(above\) \| \d+ \|$/m);
    expect(stdout).to.not.match(/MISSING|NOT within/);
  });

  it('prints the schedule engines table alone with --phases schedules, cron and OnCalendar side by side', async () => {
    const { stdout } = await bench(['--phases', 'schedules']);
    for (const row of ['cron: next match \\(cron-cronsim.json\\)', 'OnCalendar: next occurrence \\(oncalendar-reference.json\\)', 'cron: validate', 'OnCalendar: validate']) {
      expect(stdout).to.match(new RegExp(`^\\| ${row} \\| \\d+ \\| [\\d.]+ \\| [\\d.]+ \\| [\\d.]+ \\|$`, 'm'));
    }
    expect(stdout).to.not.match(/ping throughput/);
  });

  it('prints the status-page tables alone with --phases status-page: the load beside Express and bare node:http, the flips, the parts', async () => {
    const { stdout } = await bench(['--phases', 'status-page', '--status-duration', '1', '--status-repetitions', '2', '--web-cpu', 'none']);
    expect(stdout).to.match(/^status page: 50 components \(5 sections of 10 checks\), 600 stored flips over 90 days, web process unpinned; load average [\d. ]+ before:$/m);
    expect(stdout).to.match(/^\| GET \/status\/bench\/ \(gzip\), 10 connections, 1 s \| [\d,]+ \| [\d.]+ \| [\d.]+ \| 0 \| 0 \| \d+ \| [\d.]+ \| [\d,]+ \| [\d,]+ \| ≥ 2,000\/s, p99 ≤ 50: (met|NOT met) \|$/m);
    expect(stdout).to.match(/^\| minimal Express 5 route, same bytes and headers, same load \| [\d,]+ \| .* \| ratio [\d.]+ \|$/m);
    expect(stdout).to.match(/^\| bare node:http answering [\d,]+ bytes, same load \(the ceiling\) \| [\d,]+ \| .* \| ratio [\d.]+ \|$/m);
    expect(stdout).to.match(/^the web process's main thread during its load: on a CPU (\d+|\?) % of the time, waiting for one (\d+|\?) % \(runnable, not running\), idle the rest$/m);
    expect(stdout).to.match(/^bodies, bytes: page [\d,]+ \(gzip [\d,]+\), status.json [\d,]+ \(gzip [\d,]+\), feed.atom /m);
    const rows = [
      'cached page, sequential GETs \\(for comparison\\)',
      'first render after a flip \\(the GET that computes the page again\\)',
      'new overall status on the page, from the ping\'s answer \\(GETs back to back\\)',
      'component down in status.json, from the /fail ping\'s answer \\(a GET every 50 ms\\)',
      'component up again in status.json, from the success ping\'s answer',
      'one snapshot computed alone \\(bench process, same database\\)',
      'its flips query alone \\(50 checks, 90 days\\)',
      'its 50 histories computed alone \\(pure: shared/domain/status-page.ts\\)',
      'its HTML rendered, hashed and gzipped alone \\(bench process\\)',
    ];
    for (const row of rows) expect(stdout).to.match(new RegExp(`^\\| ${row} \\| 2 \\| [\\d.,]+ \\| [\\d.,]+ \\| [\\d.,]+ \\| `, 'm'));
    expect(stdout).to.match(/^load average [\d. ]+ after$/m);
    expect(stdout).to.not.match(/ping throughput/);
  });

  it('refuses an unknown phase, naming the phases, and exits 1', async () => {
    const failed = await failureOf(['--phases', 'throughput,nope']);
    expect(failed?.code).to.equal(1);
    expect(failed?.stderr).to.include('unknown phase nope (phases: schedules, throughput, scaleout, lateness, alerts, recovery, drain, scale, window, writes, pages, status-page, import)');
  });

  it('refuses --reference-url without a key, and exits 1', async () => {
    const failed = await failureOf(['--reference-url', 'http://127.0.0.1:8000']);
    expect(failed?.code).to.equal(1);
    expect(failed?.stderr).to.include('--reference-url needs --reference-key (or REFERENCE_API_KEY)');
  });
});
