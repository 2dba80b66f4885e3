#!/usr/bin/env bash
# Builds the embedded FerretDB into $1. The module's dependencies are vendored
# into a scratch copy (.data/ferretdb-build), the unified diffs in patches/ are
# applied in name order to FerretDB's vendored source (patch -p1, no fuzz; the
# build stops, naming the patch, when one does not apply), the tests the patches
# add run, and the copy is built with -mod=vendor; the
# Go module cache is left untouched. The build prints the number of patches and
# their changed lines. Each patch fixes a FerretDB 1.24.2 defect this service runs
# into (fidelity: upstream differs from MongoDB) or speeds it up, and says why at
# the changed lines:
#   001-update-atomic.diff (fidelity): update (bulk updateOne/updateMany too) and
#     findAndModify read the matching documents, then write each back as a
#     compare-and-set on the stored document, retried after a conflict; upstream
#     wrote back unconditionally (two concurrent updates of one version both
#     applied, one lost) and held the read's SQL connection while each write took
#     another (as many concurrent updates as the pool has connections hung it).
#   002-postgresql-pushdown.diff (speed): `_id: v` and `_id: {$in: [...]}` pushed
#     down as `_jsonb->'_id' = v` / `= ANY(...)` (the unique _id btree), and date
#     ranges, on dotted keys too, as lax jsonpath filters; the sweep's queries over
#     100,000 checks take about 0.1 s instead of 9-13 s.
#   003-sjson-fast-decoder.diff (speed): a single-pass decoder of stored documents
#     with schemas reused (a check in 11 us instead of 134); fast_test.go, run here,
#     checks it against FerretDB's decoder on random and corrupted documents.
#   004-postgresql-single-statement.diff (speed): a single insert or update
#     statement runs without BEGIN/COMMIT around it.
#   005-no-resource-tracking.diff (speed): lifetime tracking for FerretDB's own
#     leak tests (a pprof entry and a finalizer per iterator) does nothing.
set -euo pipefail
out="$(realpath -m "$1")"
go_bin="${GO:-go}"
src="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$src/../../.data/ferretdb-build"
fdb=vendor/github.com/FerretDB/FerretDB

# changed_lines DIFF: the added and removed lines of a unified diff (hunk bodies only).
changed_lines() {
  awk '
    /^@@ / { split($2, o, ","); split($3, n, ","); old = (2 in o) ? o[2] : 1; new = (2 in n) ? n[2] : 1; next }
    old > 0 || new > 0 {
      c = substr($0, 1, 1)
      if (c == "+") { changed++; new-- } else if (c == "-") { changed++; old-- } else if (c != "\\") { old--; new-- }
    }
    END { print changed + 0 }
  ' "$1"
}

command -v patch >/dev/null 2>&1 || { echo "build.sh: error: the patch command is missing (Debian: apt-get install -y patch)" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
cp "$src"/*.go "$src/go.mod" "$src/go.sum" "$work/"
cd "$work"
GOFLAGS=-mod=mod "$go_bin" mod vendor
version="$(awk '$1 == "github.com/FerretDB/FerretDB" { print $2 }' go.mod)"
count=0
changed=0
for diff in "$src"/patches/*.diff; do
  name="$(basename "$diff")"
  if ! result="$(patch -d "$fdb" -p1 --forward --fuzz=0 --batch --no-backup-if-mismatch --dry-run -i "$diff" 2>&1)"; then
    printf 'build.sh: error: patches/%s does not apply to FerretDB %s; update the patch (or drop it) for this version:\n%s\n' "$name" "$version" "$result" >&2
    exit 1
  fi
  patch -d "$fdb" -p1 --forward --fuzz=0 --batch --no-backup-if-mismatch --quiet -i "$diff"
  count=$((count + 1))
  changed=$((changed + $(changed_lines "$diff")))
done
echo "build.sh: FerretDB $version with $count patches, $changed changed lines (added + removed)"
# FerretDB's version package panics in a test binary of FerretDB's own packages without a version file.
printf '%s\n' "$version" > "$fdb/build/version/version.txt"
"$go_bin" test -mod=vendor -count=1 github.com/FerretDB/FerretDB/internal/handler/sjson github.com/FerretDB/FerretDB/internal/backends/sqlite
rm "$fdb/build/version/version.txt"
"$go_bin" build -mod=vendor -o "$out" .
cd "$src"
rm -rf "$work"
