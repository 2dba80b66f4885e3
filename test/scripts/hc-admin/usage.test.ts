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
    expect(result.stderr).to.equal('');
  });
});
