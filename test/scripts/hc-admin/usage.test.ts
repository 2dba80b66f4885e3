import { expect } from 'chai';
import { runCli, stderrLines } from './run-cli.js';

describe('hc-admin usage', () => {
  it('exits 2 with one line on stderr for an unknown command', async () => {
    const result = await runCli(['projects', 'create']);
    expect(result.code).to.equal(2);
    expect(stderrLines(result)).to.deep.equal(["hc-admin: unknown command 'projects'"]);
  });

  it('exits 2 with one line on stderr for a group given no command', async () => {
    const result = await runCli(['channel']);
    expect(result.code).to.equal(2);
    expect(result.stdout).to.equal('');
    expect(stderrLines(result)).to.deep.equal(['hc-admin: missing command (see hc-admin --help)']);
  });

  it('exits 2 with one line on stderr for an unknown option', async () => {
    const result = await runCli(['channel', 'list', '--project', 'x', '--all']);
    expect(result.code).to.equal(2);
    expect(stderrLines(result)).to.deep.equal(["hc-admin: unknown option '--all'"]);
  });

  it('prints help on stdout and exits 0 for --help', async () => {
    const result = await runCli(['--help']);
    expect(result.code).to.equal(0);
    expect(result.stdout).to.include('Usage: hc-admin');
    expect(stderrLines(result)).to.deep.equal([]);
  });

  it('names the database it uses, without credentials, on stderr and in --help', async () => {
    const result = await runCli(['--help'], { MONGODB_URI: 'mongodb://ops:s3cret@db.example.com:27018/hc_prod?authSource=admin' });
    expect(result.stderr).to.equal('hc-admin: database db.example.com:27018/hc_prod (from MONGODB_URI)\n');
    expect(result.stdout).to.include('Database: db.example.com:27018/hc_prod (from MONGODB_URI).');
    expect(result.stdout).to.include('Run hc-admin with the same MONGODB_URI as the service');
  });

  it('says when MONGODB_URI is unset and the default database is used', async () => {
    const env = { ...process.env, MONGODB_URI: undefined };
    const result = await runCli(['--help'], env);
    expect(result.stderr).to.equal('hc-admin: database 127.0.0.1:27017/hc (MONGODB_URI is unset: the default)\n');
  });

  it('names the database before a failure line', async () => {
    const result = await runCli(['channel', 'list', '--project', 'nope']);
    const [database, failure] = result.stderr.split('\n');
    expect([database?.startsWith('hc-admin: database 127.0.0.1:27017/hc_test_'), failure]).to.deep.equal([true, 'hc-admin: project not found: nope']);
  });
});
