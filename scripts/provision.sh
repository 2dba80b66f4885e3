#!/usr/bin/env bash
# Installs what `npm start` and `npm test` need on this machine and is missing,
# without a prompt (they run it before each start and test run; it is quick once done):
#
#   scripts/provision.sh            redis-server, PostgreSQL, and a MongoDB-compatible server (below)
#   scripts/provision.sh redis      only redis-server
#   scripts/provision.sh postgres   only the PostgreSQL server (FerretDB's PostgreSQL backend and its tests)
#   scripts/provision.sh ferretdb   only (re)build .data/bin/ferretdb from scripts/ferretdb when stale
#   scripts/provision.sh browser    only chromium (Debian's), which the dashboard's browser tests drive
#   scripts/provision.sh test       all of the above (what `npm test` runs)
#
# redis-server and PostgreSQL come from the system: as root (or with password-less
# sudo) they are installed with apt-get; otherwise one line names the command to run.
# MongoDB: where Go is available, the FerretDB binary is built from scripts/ferretdb
# (used when mongodb-memory-server has no mongod, and by FerretDB's own tests);
# without Go, mongodb-memory-server is asked to download mongod. Nothing here
# fails `npm start` or `npm test`: what is still missing is named in one line,
# and they say again what to set.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA="$ROOT/.data"
LOG="$DATA/provision.log"
FERRET_SRC="$ROOT/scripts/ferretdb"
FERRET_BIN="$DATA/bin/ferretdb"

say() { printf 'provision: %s\n' "$*"; }
fail() { printf 'provision: error: %s\n' "$*" >&2; exit 1; }

find_go() {
  if command -v go >/dev/null 2>&1; then command -v go
  elif [[ -x /usr/local/go/bin/go ]]; then echo /usr/local/go/bin/go
  fi
}

# Builds $FERRET_BIN when it is missing or older than its sources; fails when that is not possible.
build_ferretdb() {
  local stale=0 f go_bin
  [[ -x "$FERRET_BIN" ]] || stale=1
  for f in "$FERRET_SRC"/*.go "$FERRET_SRC"/patches/* "$FERRET_SRC/build.sh" "$FERRET_SRC/go.mod" "$FERRET_SRC/go.sum"; do
    [[ "$f" -nt "$FERRET_BIN" ]] && stale=1
  done
  [[ $stale -eq 1 ]] || return 0
  go_bin="$(find_go)"
  [[ -n "$go_bin" ]] || fail "go is not installed; it is needed once to build FerretDB from scripts/ferretdb"
  say "building FerretDB into .data/bin/ferretdb (the first time downloads Go modules, about a minute)"
  mkdir -p "$DATA/bin"
  GO="$go_bin" bash "$FERRET_SRC/build.sh" "$FERRET_BIN" >>"$LOG" 2>&1 || fail "building FerretDB failed (see .data/provision.log)"
  say "built $(grep '^build.sh: FerretDB ' "$LOG" | tail -n 1 | cut -c11-)"
}

# Runs apt-get as root, or through password-less sudo; false when neither is possible.
as_root() {
  if [[ $EUID -eq 0 ]]; then "$@"
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo -n "$@"
  else return 1
  fi
}

# Installs Debian package $1 with apt-get when $2 (a command) fails, or names the command to run.
provision_package() {
  local package="$1"
  shift
  "$@" >/dev/null 2>&1 && return 0
  local hint="sudo apt-get install -y $package"
  if ! command -v apt-get >/dev/null 2>&1; then
    say "$package is missing; install it with your package manager (Debian/Ubuntu: $hint)"
    return 0
  fi
  say "installing $package with apt-get (log .data/provision.log)"
  export DEBIAN_FRONTEND=noninteractive
  local install=(apt-get -o DPkg::Lock::Timeout=120 install -y -q "$package")
  if as_root "${install[@]}" </dev/null >>"$LOG" 2>&1 \
    || { as_root apt-get update -q </dev/null >>"$LOG" 2>&1 && as_root "${install[@]}" </dev/null >>"$LOG" 2>&1; }; then
    say "$package installed"
  else
    say "$package is missing and could not be installed here; run: $hint"
  fi
}

provision_redis() { provision_package redis-server command -v redis-server; }

# The browser the dashboard tests drive with puppeteer-core (which never downloads one); CHROMIUM_PATH overrides it.
provision_browser() {
  if [[ -n "${CHROMIUM_PATH:-}" ]]; then
    [[ -x "$CHROMIUM_PATH" ]] || say "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable; the dashboard tests will fail"
    return 0
  fi
  provision_package chromium test -x /usr/bin/chromium
}

# The PostgreSQL server (Debian layout) for FerretDB's PostgreSQL backend and its tests.
provision_postgres() { provision_package postgresql bash -c 'ls /usr/lib/postgresql/*/bin/postgres'; }

# True when mongodb-memory-server has mongod (cached or on the system), or can download it now.
mongod_available() {
  (cd "$ROOT" && timeout 300 node --input-type=module -e "
    const { MongoBinary } = await import('mongodb-memory-server');
    await MongoBinary.getPath();
  ") >>"$LOG" 2>&1
}

provision_mongo() {
  if [[ -n "$(find_go)" ]]; then
    (build_ferretdb) || true
  elif ! mongod_available; then
    say "no MongoDB for npm start / npm test: mongod cannot be downloaded and Go (to build FerretDB) is missing; install Go or set MONGODB_URI"
  fi
}

mkdir -p "$DATA"
case "${1:-all}" in
  all)
    provision_redis
    provision_postgres
    provision_mongo
    ;;
  redis) provision_redis ;;
  postgres) provision_postgres ;;
  test)
    provision_redis
    provision_postgres
    provision_mongo
    provision_browser
    ;;
  ferretdb) build_ferretdb ;;
  browser) provision_browser ;;
  *) fail "usage: scripts/provision.sh [all|test|redis|postgres|ferretdb|browser]" ;;
esac
