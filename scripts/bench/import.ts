/**
 * The `import` phase: `hc-admin import healthchecks` of a dump of `--import-checks` checks with `--import-pings` pings each
 * (10,000 × 100 by default), in the shape Healthchecks' dumpdata writes (test/fixtures/healthchecks/dump.json), into the
 * bench's database, deadlines to the bench's queues. Prints the time to parse, plan and write it, and what it wrote.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { importPlan } from '../../shared/migrate/import.js';
import { parseDump } from '../../shared/migrate/dump.js';
import { planImport } from '../../shared/migrate/plan.js';
import { closeQueues, openQueues } from '../../shared/queues/index.js';
import type { Out } from './common.js';

/** A dump's text: one user, one project, `checks` checks each with `pings` pings (bodies of 40 bytes), one flip each. */
export function syntheticDump(checks: number, pings: number, now: Date): string {
  const parts: string[] = [
    JSON.stringify({ model: 'auth.user', pk: 1, fields: { password: '!', email: 'bench@example.org', date_joined: now.toISOString() } }),
    JSON.stringify({ model: 'accounts.profile', pk: 1, fields: { user: 1, reports: 'off', nag_period: '00:00:00', tz: 'UTC', ping_log_limit: pings, check_limit: checks, totp: null, totp_created: null } }),
    JSON.stringify({ model: 'accounts.project', pk: 1, fields: { code: randomUUID(), name: 'bench import', owner: 1, api_key: '', api_key_readonly: '', badge_key: randomUUID(), ping_key: randomUUID().replaceAll('-', '').slice(0, 22) } }),
  ];
  const body = Buffer.from('backup finished: 1234 files, 56 MB copied').toString('base64');
  let pingPk = 0;
  for (let c = 1; c <= checks; c++) {
    const last = new Date(now.getTime() - 60_000);
    parts.push(JSON.stringify({
      model: 'api.check', pk: c,
      fields: {
        code: randomUUID(), name: `check ${c}`, slug: `check-${c}`, tags: 'bench', desc: '', project: 1, created: now.toISOString(), kind: 'simple',
        timeout: '1 00:00:00', grace: '01:00:00', schedule: '* * * * *', tz: 'UTC', filter_subject: false, filter_body: false, start_kw: '', success_kw: '',
        failure_kw: '', methods: '', manual_resume: false, badge_key: randomUUID(), n_pings: pings, last_ping: last.toISOString(), last_start: null,
        last_start_rid: null, last_duration: null, alert_after: null, status: 'up',
      },
    }));
    for (let n = 1; n <= pings; n++) {
      const created = new Date(last.getTime() - (pings - n) * 60_000).toISOString();
      parts.push(JSON.stringify({
        model: 'api.ping', pk: ++pingPk,
        fields: { n, owner: c, created, kind: null, scheme: 'http', remote_addr: '127.0.0.1', method: 'POST', ua: 'curl/8.0', body_raw: body, object_size: null, exitstatus: 0, rid: null },
      }));
    }
    parts.push(JSON.stringify({ model: 'api.flip', pk: c, fields: { owner: c, created: now.toISOString(), processed: now.toISOString(), old_status: 'new', new_status: 'up', reason: '' } }));
  }
  return `[${parts.join(',')}]`;
}

/** Runs the phase and prints its figures: the whole import's time, and its parse-and-plan and write parts. */
export async function reportImport(redis: Redis, prefix: string, checks: number, pings: number, out: Out): Promise<void> {
  const text = syntheticDump(checks, pings, new Date());
  out(`import: a Healthchecks dump of ${checks} checks × ${pings} pings (${(text.length / 1e6).toFixed(0)} MB)`);
  const queues = openQueues(redis, `${prefix}_import`);
  try {
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    const plan = planImport(parseDump(text), undefined);
    const planned = seconds();
    const report = await importPlan(plan, { queues, now: new Date() });
    const total = seconds();
    const w = report.written;
    out(`  imported in ${total.toFixed(1)} s (the target: under 120 s): parse and plan ${planned.toFixed(1)} s, conflicts, write and deadlines ${(total - planned).toFixed(1)} s`);
    out(`  wrote ${w?.checksCreated} checks, ${w?.pings} pings, ${w?.flips} flips: ${Math.round((w?.pings ?? 0) / total)} pings/s`);
  } finally {
    await closeQueues(queues);
  }
}
