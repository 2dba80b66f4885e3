/**
 * Copy-ready examples of pinging a check (the reference's "usage examples"): crontab, curl, wget, Python, Node, Go, Ruby, PHP, C#, PowerShell,
 * runitor; and the email example.
 */

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
    { id: 'go', label: 'Go', code: `package main\n\nimport (\n\t"fmt"\n\t"net/http"\n\t"time"\n)\n\nfunc main() {\n\tclient := &http.Client{Timeout: 10 * time.Second}\n\tif _, err := client.Head("${pingUrl}"); err != nil {\n\t\tfmt.Printf("Ping failed: %s", err)\n\t}\n}` },
    { id: 'ruby', label: 'Ruby', code: `require 'net/http'\nrequire 'uri'\n\nNet::HTTP.get(URI.parse('${pingUrl}'))` },
    { id: 'php', label: 'PHP', code: `file_get_contents('${pingUrl}');` },
    { id: 'csharp', label: 'C#', code: `using (var client = new System.Net.WebClient())\n{\n    client.DownloadString("${pingUrl}");\n}` },
    { id: 'powershell', label: 'PowerShell', code: `# inside a PowerShell script:\nInvoke-RestMethod ${pingUrl}` },
    { id: 'runitor', label: 'runitor', code: `runitor -api-url ${base} -uuid ${uuid} -- /path/to/your-job.sh` },
  ];
}

/** The example for a check's ping email address (`<uuid>\@<PING_EMAIL_DOMAIN>`, docs/email-pings.md): a message sent to it is a ping. */
export function emailExample(address: string): UsageExample {
  return { id: 'email', label: 'Email', code: `# any message to the address is a ping; keyword filters read its subject and body\necho "Backup done" | mail -s "backup: success" ${address}` };
}
