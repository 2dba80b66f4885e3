#!/usr/bin/env bash
# Builds the embedded FerretDB into $1. The module's dependencies are vendored
# into a scratch copy (.data/ferretdb-build), the files in patches/ replace their
# namesakes in FerretDB's vendored source, and the copy is built with -mod=vendor;
# the Go module cache is left untouched. Each patch fixes a FerretDB 1.24 defect
# this service runs into and says why at the changed lines:
#   patches/msg_update.go.overlay -> internal/handler/msg_update.go: an update command
#     kept every statement's SQL connection until it returned, so one bulk write of
#     100 updates exhausted the SQLite pool of 100 connections and hung the server.
#     It also read the matching documents while updating them, holding the query's
#     connection while each write took another: as many updates as the pool has
#     connections deadlocked the server. It now reads them first, then writes.
#   patches/msg_findandmodify.go.overlay -> internal/handler/msg_findandmodify.go: the
#     same read-while-writing deadlock in findAndModify.
#   patches/query.go.overlay -> internal/backends/postgresql/query.go: `$in` was not
#     pushed down to PostgreSQL, so every find by a list of ids read the whole table;
#     `_id: {$in: [...]}` is now pushed down as `_jsonb->'_id' = ANY(...)`, which the
#     btree index of _id serves, and `_id: v` as `_jsonb->'_id' = v` (FerretDB's
#     `@>` could only use a jsonb_path_ops index, whose selectivity PostgreSQL
#     guesses: `{_id: x, deadline: d}` was planned as a BitmapAnd with the deadline
#     index, so each update of a thousand checks sharing a deadline read all of
#     their index entries). Nor were ranges: a range on a date (`$lt`, `$lte`,
#     `$gt`, `$gte`) is now pushed down as a jsonpath filter
#     (`_jsonb @? '$."deadline" ? (@ <= ms)'`), so the sweep's queries no longer read
#     every check into FerretDB.
#   patches/msg_find.go.overlay, msg_explain.go.overlay -> internal/handler/: a dotted
#     key (`outbox.recorded`) was dropped from every pushed-down filter; a date range
#     on one is now kept (query.go pushes it down as a jsonpath that follows arrays).
#   patches/collection.go.overlay -> internal/backends/postgresql/collection.go: every
#     insert and update ran in a transaction of its own, although PostgreSQL runs one
#     statement atomically by itself; FerretDB updates documents one at a time, so each
#     update cost two more round trips (BEGIN, COMMIT). A single statement now runs
#     on the pool; more than one still run in a transaction.
#   patches/sjson.go.overlay, sjson_fast.go.overlay -> internal/handler/sjson/sjson.go,
#     fast.go: decoding a stored document ran encoding/json's reflection decoder twice
#     over every value and decoded its schema (as long as the data) anew each time:
#     most of FerretDB's CPU when reading or updating a thousand checks (134 us per
#     check). Unmarshal now decodes the common case in one pass with schemas reused
#     (11 us), and leaves anything else to FerretDB's decoder (renamed
#     unmarshalReference). sjson_fast_test.go.overlay (fast_test.go), run here before
#     building, checks both give equal results on random and corrupted documents.
#   patches/resource.go.overlay -> internal/util/resource/resource.go: lifetime tracking
#     for FerretDB's own leak tests (a pprof profile entry and a finalizer for every
#     iterator) cost about 7 % of the server's CPU; Track and Untrack do nothing now.
set -euo pipefail
out="$(realpath -m "$1")"
go_bin="${GO:-go}"
src="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$src/../../.data/ferretdb-build"
rm -rf "$work"
mkdir -p "$work"
cp "$src"/*.go "$src/go.mod" "$src/go.sum" "$work/"
cd "$work"
GOFLAGS=-mod=mod "$go_bin" mod vendor
cp "$src/patches/msg_update.go.overlay" vendor/github.com/FerretDB/FerretDB/internal/handler/msg_update.go
cp "$src/patches/msg_findandmodify.go.overlay" vendor/github.com/FerretDB/FerretDB/internal/handler/msg_findandmodify.go
cp "$src/patches/query.go.overlay" vendor/github.com/FerretDB/FerretDB/internal/backends/postgresql/query.go
cp "$src/patches/collection.go.overlay" vendor/github.com/FerretDB/FerretDB/internal/backends/postgresql/collection.go
cp "$src/patches/msg_find.go.overlay" vendor/github.com/FerretDB/FerretDB/internal/handler/msg_find.go
cp "$src/patches/msg_explain.go.overlay" vendor/github.com/FerretDB/FerretDB/internal/handler/msg_explain.go
cp "$src/patches/resource.go.overlay" vendor/github.com/FerretDB/FerretDB/internal/util/resource/resource.go
sjson=vendor/github.com/FerretDB/FerretDB/internal/handler/sjson
cp "$src/patches/sjson.go.overlay" "$sjson/sjson.go"
cp "$src/patches/sjson_fast.go.overlay" "$sjson/fast.go"
cp "$src/patches/sjson_fast_test.go.overlay" "$sjson/fast_test.go"
"$go_bin" test -mod=vendor -count=1 github.com/FerretDB/FerretDB/internal/handler/sjson
"$go_bin" build -mod=vendor -o "$out" .
cd "$src"
rm -rf "$work"
