/** Copy-ready examples of pinging a check (the reference's "usage examples"): curl, wget, Python, Node, PowerShell, runitor. */

/** One example: a label and its text. */
export interface UsageExample {
  id: string;
  label: string;
  code: string;
}

/** The examples for a ping URL. */
export function usageExamples(pingUrl: string): UsageExample[] {
  const uuid = pingUrl.slice(pingUrl.lastIndexOf('/') + 1);
  const base = pingUrl.slice(0, pingUrl.lastIndexOf('/'));
  return [
    { id: 'crontab', label: 'crontab', code: `# m h dom mon dow command\n8 6 * * * /home/user/backup.sh && curl -fsS -m 10 --retry 5 -o /dev/null ${pingUrl}` },
    { id: 'curl', label: 'curl', code: `curl -m 10 --retry 5 ${pingUrl}` },
    { id: 'wget', label: 'wget', code: `wget ${pingUrl} -T 10 -t 5 -O /dev/null` },
    { id: 'python', label: 'Python', code: `import socket\nimport urllib.request\n\ntry:\n    urllib.request.urlopen("${pingUrl}", timeout=10)\nexcept socket.error as e:\n    # Log ping failure here...\n    print("Ping failed: %s" % e)` },
    { id: 'node', label: 'Node', code: `await fetch("${pingUrl}", { signal: AbortSignal.timeout(10000) })\n  .catch((err) => console.error("Ping failed:", err));` },
    { id: 'powershell', label: 'PowerShell', code: `# inside a PowerShell script:\nInvoke-RestMethod ${pingUrl}` },
    { id: 'runitor', label: 'runitor', code: `runitor -api-url ${base} -uuid ${uuid} -- /path/to/your-job.sh` },
  ];
}
