import { expect } from 'chai';
import { metricsText, observeAlertSeconds, observePingSeconds, trackQueueDepths } from '../../shared/metrics.js';
import { testContext } from '../helpers/hooks.js';

/** The value of the sample `line` (metric name and labels), or undefined when absent. */
function sample(text: string, line: string): number | undefined {
  const found = text.split('\n').find((row) => row.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

describe('shared/metrics: process metrics', () => {
  it('reports waiting, delayed, active and failed jobs of every queue it tracks', async () => {
    const { redis, queues } = testContext();
    const tracking = trackQueueDepths(redis);
    try {
      await queues.notify.add('notify', { flipId: 'a', checkId: 'c', channelId: 'h' }, { jobId: 'depth-a' });
      await queues.notify.add('notify', { flipId: 'b', checkId: 'c', channelId: 'h' }, { jobId: 'depth-b' });
      await queues.deadlines.add('deadline', { checkId: 'c' }, { jobId: 'depth-c', delay: 60_000 });
      const { body } = await metricsText();
      expect(sample(body, 'hc_queue_jobs{queue="notify",state="waiting"}')).to.equal(2);
      expect(sample(body, 'hc_queue_jobs{queue="deadlines",state="delayed"}')).to.equal(1);
      expect(sample(body, 'hc_queue_jobs{queue="notify",state="failed"}')).to.equal(0);
      expect(sample(body, 'hc_queue_jobs{queue="deadlines",state="waiting"}')).to.equal(0);
      expect(sample(body, 'hc_queue_jobs{queue="sweep",state="active"}')).to.equal(0);
    } finally {
      await tracking.close();
    }
  });

  it('stops reporting queue depths once the tracking is closed', async () => {
    const tracking = trackQueueDepths(testContext().redis);
    await tracking.close();
    const { body } = await metricsText();
    expect(body).not.to.match(/^hc_queue_jobs\{/m);
  });

  it('counts observed ping and alert latencies in their histograms, in seconds', async () => {
    const before = (await metricsText()).body;
    observePingSeconds(0.003);
    observeAlertSeconds(42);
    const after = (await metricsText()).body;
    const grew = (line: string) => (sample(after, line) ?? 0) - (sample(before, line) ?? 0);
    expect(grew('hc_ping_duration_seconds_bucket{le="0.005"}')).to.equal(1);
    expect(grew('hc_ping_duration_seconds_bucket{le="0.0025"}')).to.equal(0);
    expect(grew('hc_alert_latency_seconds_bucket{le="60"}')).to.equal(1);
    expect(grew('hc_alert_latency_seconds_bucket{le="30"}')).to.equal(0);
    expect(grew('hc_alert_latency_seconds_sum')).to.be.closeTo(42, 1e-9);
  });

  it('includes Node’s default process metrics', async () => {
    const { contentType, body } = await metricsText();
    expect(contentType).to.match(/^text\/plain; version=0\.0\.4/);
    expect(body).to.include('# TYPE process_resident_memory_bytes gauge');
    expect(body).to.include('# TYPE nodejs_heap_size_used_bytes gauge');
  });
});
