#!/usr/bin/env bash
# Prints the size figures of the event path: the lines of each module
# of the event path (ping ingest and journal, check store, deadlines, outbox,
# notifications and their workers; providers and the API excluded) and their
# total, the share of comment lines in server/, workers/ and shared/, and the
# longest file there. Usage: bash scripts/size.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

EVENT_PATH=(server/ping shared/checks shared/pings shared/deadlines shared/alerts shared/queues workers)

echo "event path (lines per file):"
# shellcheck disable=SC2046
find "${EVENT_PATH[@]}" -name '*.ts' -print0 | xargs -0 wc -l | sort -n | sed 's/^/  /'

# Comment lines: lines inside /* */ blocks and lines starting with //.
comment_lines() {
  awk '
    /^[[:space:]]*\/\*/ { inblock = 1 }
    inblock { c++; if ($0 ~ /\*\//) inblock = 0; next }
    /^[[:space:]]*\/\// { c++ }
    END { print c + 0 }' "$@"
}
mapfile -d '' files < <(find server workers shared -name '*.ts' -print0)
total=$(cat "${files[@]}" | wc -l)
comments=$(comment_lines "${files[@]}")
echo "comment lines in server/ workers/ shared/: $comments of $total ($((100 * comments / total)) %)"
echo "longest file: $(wc -l "${files[@]}" | grep -v ' total$' | sort -n | tail -n 1 | sed 's/^ *//')"
