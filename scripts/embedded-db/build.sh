#!/usr/bin/env bash
# Builds the embedded database `npm start` and `npm test` run when no MONGODB_URI server is given
# (docs/operations.md, "The embedded database"): FerretDB 2 on PostgreSQL 15 with the DocumentDB extension.
#
#   build.sh BIN_DIR CACHE_DIR
#
# 1. PostgreSQL 15 and the extension's build dependencies from Debian (apt-get, as root or with sudo).
# 2. pgvector 0.8.0, pg_cron 1.6.3 and DocumentDB from the snapshots beside this file (their SHA-256 sums
#    checked first), built with PGXS by extensions.sh into CACHE_DIR/<key>/stage, then copied into the system's
#    PostgreSQL directories. <key> is a hash of the snapshots' sums and extensions.sh: a stamp in PostgreSQL's extension
#    directory tells whether the installed files are this build, so a second checkout reuses them.
# 3. FerretDB 2.7.0 with `go install` from the Go module proxy into BIN_DIR/ferretdb.
# Prints `build.sh: built ...` lines; a failure exits non-zero with the failing step's output above it.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BIN_DIR="$1"
CACHE_DIR="$2"
PG_MAJOR=15
FERRETDB_VERSION=v2.7.0
PG_BIN="/usr/lib/postgresql/$PG_MAJOR/bin"
DEB_PACKAGES=(postgresql-$PG_MAJOR postgresql-server-dev-$PG_MAJOR libbson-dev libpcre2-dev
  libintelrdfpmath-dev libkrb5-dev postgresql-$PG_MAJOR-rum postgresql-$PG_MAJOR-postgis-3 pkg-config build-essential xz-utils)

say() { printf 'build.sh: %s\n' "$*"; }

as_root() {
  if [[ $EUID -eq 0 ]]; then "$@"
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo -n "$@"
  else say "needs root (or password-less sudo) for: $*" >&2; return 1
  fi
}

# The Debian packages, when one is missing.
install_packages() {
  local missing=()
  for p in "${DEB_PACKAGES[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p"); done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  say "installing ${missing[*]} with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  local install=(apt-get -o DPkg::Lock::Timeout=120 install -y -q "${missing[@]}")
  as_root "${install[@]}" </dev/null || { as_root apt-get update -q </dev/null && as_root "${install[@]}" </dev/null; }
}

install_packages
KEY="$(cat "$HERE/SHA256SUMS" "$HERE/extensions.sh" "$HERE/intelmathlib.pc" | sha256sum | cut -c1-16)"
SHAREDIR="$("$PG_BIN/pg_config" --sharedir)"
STAMP="$SHAREDIR/extension/hc-monitor-embedded.stamp"
if [[ "$(cat "$STAMP" 2>/dev/null)" != "$KEY" ]]; then
  STAGE="$CACHE_DIR/$KEY/stage"
  if [[ ! -d "$STAGE" ]]; then
    say "building pgvector, pg_cron and DocumentDB (about 2 minutes)"
    bash "$HERE/extensions.sh" "$CACHE_DIR/$KEY/src" "$STAGE" "$PG_BIN/pg_config"
  fi
  # A new file for each (not written over in place): a running server keeps the version it mapped.
  as_root cp -a --remove-destination "$STAGE/." /
  echo "$KEY" | as_root tee "$STAMP" >/dev/null
  say "built DocumentDB, pg_cron 1.6.3 and pgvector 0.8.0 for PostgreSQL $PG_MAJOR ($KEY)"
fi

if [[ "$("$BIN_DIR/ferretdb" --version 2>/dev/null | head -n 1)" != "version: $FERRETDB_VERSION" ]]; then
  GO="${GO:-go}"
  say "building FerretDB $FERRETDB_VERSION with Go (about 2 minutes the first time)"
  mkdir -p "$BIN_DIR"
  GOBIN="$BIN_DIR" GOFLAGS=-mod=mod "$GO" install "github.com/FerretDB/FerretDB/v2/cmd/ferretdb@$FERRETDB_VERSION"
  say "built FerretDB $FERRETDB_VERSION"
fi
