#!/usr/bin/env bash
# `npm run lint` (and `npm test`, right after the build). Three checks, each at zero findings:
#
#   1. ESLint (eslint.config.js): typescript-eslint's type-checked rules, tsdoc/syntax, and the
#      import rules that keep the arrows pointing down (server and workers import shared, never
#      the other way; workers never import server; shared/domain does no I/O).
#   2. No import cycle among the sources (madge; type-only imports count, they are cycles too).
#   3. No file under server/, shared/ or workers/ mentions FerretDB or DocumentDB: product code uses
#      MongoDB's documented semantics; the embedded server's particulars stay in scripts/ (embedded-db/,
#      embedded-mongo.ts) and the tests of it.
#
# All three run; the exit status is non-zero when any of them found something.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BIN=node_modules/.bin
status=0
step() { printf '\n==> lint: %s\n' "$*"; }
failed() { printf 'lint: %s\n' "$*" >&2; status=1; }

step "eslint"
"$BIN/eslint" --max-warnings 0 . || failed "eslint found problems"

step "import cycles (madge)"
"$BIN/madge" --circular --no-spinner --extensions ts --ts-config tsconfig.json server shared workers scripts \
  || failed "madge found import cycles (or could not run)"

step "no mention of FerretDB or DocumentDB in server/, shared/, workers/"
mentions="$(grep -rliIE 'ferretdb|documentdb' server shared workers | sort)"
if [[ -n "$mentions" ]]; then
  grep -niIE 'ferretdb|documentdb' $mentions
  failed "the embedded server is named in server/, shared/ or workers/ (keep it to scripts/embedded-db, scripts/embedded-mongo.ts and their tests)"
else
  echo "none"
fi

exit "$status"
