#!/usr/bin/env bash
# Builds the embedded FerretDB into $1 (development and test tooling: a MongoDB
# stand-in). The module's dependencies are vendored into a scratch copy
# (.data/ferretdb-build), the unified diffs in patches/ are applied in name order
# to FerretDB's vendored source with patch -p1 and no fuzz (the build stops,
# naming the patch, when one does not apply), the Go tests the patches add run,
# and the copy is built with -mod=vendor; the Go module cache is left untouched.
# It prints the number of patches and their changed lines (added + removed).
#
# A patch is kept only as a fidelity fix (upstream differs from MongoDB) or as a
# speed-up covered by a differential test against upstream's behaviour, or that
# cannot change a result; each says why at its changed lines. Figures: 2-core
# machine, PostgreSQL backend, scripts/ferretdb/measure.mjs (medians of 4 rounds).
#   001-update-atomic.diff (fidelity): update (bulk updateOne/updateMany too) and
#     findAndModify write each document back as a compare-and-set on the stored
#     document, re-reading and retrying after a conflict; upstream wrote back
#     unconditionally (two concurrent updates of one version both applied, one
#     lost) and, holding the read's connection while writing, hung under as many
#     concurrent updates as its pool has connections. Tests:
#     test/scripts/ferretdb/atomic-update.test.ts, backends/sqlite/cas_test.go.
#   002-postgresql-pushdown.diff (speed): `_id` equality and `$in` pushed down
#     through the unique _id btree, date ranges (dotted keys too): an upper bound
#     as a comparison with the least number on the path, which pgindex.go's btree
#     index serves for a single-field MongoDB index (as MongoDB's index does), a
#     lower bound as a jsonpath filter. A sweep query over 100,000 checks in about
#     0.1 s instead of 9-13 s; the workers' every-second query for owed work over
#     20,000 checks 7-12 ms instead of 170-260. Adds ferretdb.Config.DisablePushdown,
#     the reference of its differential test (test/scripts/ferretdb/pushdown.test.ts).
#   003-sjson-fast-decoder.diff (speed): a single-pass decoder of stored
#     documents (a check in 11 us instead of 134); its differential test against
#     FerretDB's decoder (fast_test.go) runs here.
#   004-postgresql-single-statement.diff (speed, cannot change results): a single
#     insert or update statement runs without BEGIN/COMMIT (PostgreSQL runs one
#     statement atomically by itself); 1,000 updateOne in a bulk write 1.00 s
#     instead of 1.41 s (FerretDB CPU 490 ms instead of 810).
#   005-no-resource-tracking.diff (speed, cannot change results): lifetime
#     tracking for FerretDB's leak tests (a pprof entry with a stack and a
#     finalizer per iterator; no result depends on it) does nothing; the same
#     bulk write 1.00 s instead of 1.30 s (FerretDB CPU 490 ms instead of 705).
#   006-sparse-indexes.diff (fidelity and speed): createIndexes keeps `sparse`
#     (upstream ignored it, FerretDB#2448), listIndexes reports it, and the
#     PostgreSQL backend creates a sparse index as a partial index
#     `WHERE _jsonb ? 'f'` (compound: any of its fields), so a document without
#     the field costs no entry on a write, as in MongoDB; a null value is indexed.
#     A sparse dotted key is refused (not implemented). SQLite keeps the option
#     for listIndexes only. A pushed-down upper bound on a date also states
#     `_jsonb ? 'first part of the key'` (true whenever a number is found on the
#     path: no result changes), the predicate of pgindex.go's partial least-number
#     index, cheaper on each write than `hc_min_number(...) IS NOT NULL`.
#     Tests: test/scripts/ferretdb/sparse.test.ts, postgresql.test.ts, pushdown.test.ts.
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
