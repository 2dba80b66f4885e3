#!/usr/bin/env bash
# `npm run lint` (and `npm test`, right after the build). Three checks, each at zero findings:
#
#   1. ESLint (eslint.config.js): typescript-eslint's type-checked rules, tsdoc/syntax, and the
#      import rules that keep the arrows pointing down (server and workers import shared, never
#      the other way; workers never import server; shared/domain does no I/O).
#   2. No import cycle among the sources (madge; type-only imports count, they are cycles too).
#   3. No file under server/, shared/ or workers/ mentions FerretDB: what is particular to one
#      MongoDB-compatible server stays in scripts/ferretdb and the tests of it.
#
# All three run; the exit status is non-zero when any of them found something.
# Until the event-path rewrite lands, the files it rewrites are skipped by all three checks
# (PENDING_EVENT_PATH in eslint.config.js); `npm run lint:pending` (LINT_PENDING=1) checks them too.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BIN=node_modules/.bin
status=0
step() { printf '\n==> lint: %s\n' "$*"; }
failed() { printf 'lint: %s\n' "$*" >&2; status=1; }

# The event-path files being rewritten, as one regular expression over relative paths.
pending=''
if [[ -z "${LINT_PENDING:-}" ]]; then
  pending="$(node --input-type=module -e "
    const { PENDING_EVENT_PATH, PENDING_EVENT_PATH_PATTERN } = await import('./eslint.config.js');
    if (PENDING_EVENT_PATH.length > 0) console.log(PENDING_EVENT_PATH_PATTERN);
  ")" || { echo 'lint: cannot read PENDING_EVENT_PATH from eslint.config.js' >&2; exit 1; }
  [[ -n "$pending" ]] && echo "lint: skipping the event-path files being rewritten (npm run lint:pending checks them)"
fi

step "eslint"
"$BIN/eslint" --max-warnings 0 . || failed "eslint found problems"

step "import cycles (madge)"
exclude=()
[[ -n "$pending" ]] && exclude=(--exclude "$pending")
"$BIN/madge" --circular --no-spinner --extensions ts --ts-config tsconfig.json "${exclude[@]}" server shared workers scripts \
  || failed "madge found import cycles (or could not run)"

step "no mention of FerretDB in server/, shared/, workers/"
mentions="$(grep -rliI ferretdb server shared workers | sort)"
[[ -n "$pending" && -n "$mentions" ]] && mentions="$(grep -Ev "$pending" <<<"$mentions")"
if [[ -n "$mentions" ]]; then
  grep -niI ferretdb $mentions
  failed "FerretDB is named in server/, shared/ or workers/ (keep it to scripts/ferretdb and its tests)"
else
  echo "none"
fi

exit "$status"
