#!/usr/bin/env bash
# Installs what `npm start` and `npm test` need on this machine and is missing,
# without a prompt (they run it before each start and test run; it is quick once done):
#
#   scripts/provision.sh            redis-server and a MongoDB-compatible server (below)
#   scripts/provision.sh redis      only redis-server
#   scripts/provision.sh embedded   only (re)build the embedded database when stale (scripts/embedded-db/build.sh)
#   scripts/provision.sh browser    only chromium (Debian's), which the web app's browser tests drive
#   scripts/provision.sh test       all of the above (what `npm test` runs)
#
# redis-server comes from the system: as root (or with password-less sudo) it is
# installed with apt-get; otherwise one line names the command to run.
# MongoDB: mongodb-memory-server is asked for mongod first (its cache, or a download
# when its server answers within seconds, so an offline machine does not wait); when
# no mongod can be had, the embedded database is built: FerretDB 2 on PostgreSQL 15
# with DocumentDB (scripts/embedded-db/build.sh: Debian's PostgreSQL, the extensions
# from the snapshots committed there, FerretDB 2 with Go). `test` builds it wherever Go
# is installed, for the tests that start servers of their own. Nothing here fails
# `npm start` or `npm test`: what is still missing is named in one line, and they say
# again what to set.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA="$ROOT/.data"
LOG="$DATA/provision.log"

say() { printf 'provision: %s\n' "$*"; }
fail() { printf 'provision: error: %s\n' "$*" >&2; exit 1; }

find_go() {
  if command -v go >/dev/null 2>&1; then command -v go
  elif [[ -x /usr/local/go/bin/go ]]; then echo /usr/local/go/bin/go
  fi
}

# Builds the embedded database into .data/ (build.sh skips what is already built from the same inputs); fails when that is not possible.
build_embedded() {
  local go_bin
  go_bin="$(find_go)"
  [[ -n "$go_bin" ]] || fail "go is not installed; it is needed once to build FerretDB 2 (scripts/embedded-db/build.sh)"
  local out
  out="$(mktemp)"
  if ! GO="$go_bin" bash "$ROOT/scripts/embedded-db/build.sh" "$DATA/bin" "$DATA/embedded" >"$out" 2>&1; then
    cat "$out" >>"$LOG"
    rm -f "$out"
    fail "building the embedded database failed (see .data/provision.log)"
  fi
  cat "$out" >>"$LOG"
  { grep '^build.sh: built ' "$out" || true; } | sed 's/^build.sh: /provision: /'
  rm -f "$out"
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

# The browser the web app's browser tests drive with puppeteer-core (which never downloads one); CHROMIUM_PATH overrides it.
provision_browser() {
  if [[ -n "${CHROMIUM_PATH:-}" ]]; then
    [[ -x "$CHROMIUM_PATH" ]] || say "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable; the browser tests will fail"
    return 0
  fi
  provision_package chromium test -x /usr/bin/chromium
}

# True when mongodb-memory-server has mongod (cached or on the system), or can download it now.
# The download is only tried when the download server answers a HEAD request within
# $MONGOD_PROBE_SECONDS (an offline machine fails here at once, or after that long
# at worst); the download itself may take up to $MONGOD_DOWNLOAD_SECONDS.
# Behind a proxy (https_proxy etc., which only the download honours) the probe is skipped.
MONGOD_PROBE_SECONDS=10
MONGOD_DOWNLOAD_SECONDS=900
mongod_available() {
  (cd "$ROOT" && PROBE_MS=$((MONGOD_PROBE_SECONDS * 1000)) timeout "$MONGOD_DOWNLOAD_SECONDS" node --input-type=module -e "
    const { DryMongoBinary, MongoBinary } = await import('mongodb-memory-server');
    const options = await DryMongoBinary.generateOptions();
    if (await DryMongoBinary.locateBinary(options)) process.exit(0);
    const env = process.env;
    if (!(env.https_proxy || env.HTTPS_PROXY || env.http_proxy || env.HTTP_PROXY || env.MONGOMS_DOWNLOAD_URL)) {
      const { MongoBinaryDownloadUrl } = await import('mongodb-memory-server-core/lib/util/MongoBinaryDownloadUrl.js');
      const url = await new MongoBinaryDownloadUrl(options).getDownloadUrl();
      const answer = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(Number(env.PROBE_MS)) })
        .catch((err) => { console.error('mongod download: no answer from', url, err.cause?.code ?? err.name); process.exit(1); });
      if (!answer.ok) { console.error('mongod download:', url, 'answered', answer.status); process.exit(1); }
    }
    console.error('mongod download: downloading', options.version);
    await MongoBinary.getPath();
  ") >>"$LOG" 2>&1
}

# The MongoDB npm start and npm test use: mongodb-memory-server's mongod, downloaded when possible;
# the embedded database, built with Go and PostgreSQL's PGXS, only when no mongod can be had.
provision_mongo() {
  if mongod_available; then return 0; fi
  if [[ -n "$(find_go)" ]]; then
    (build_embedded) || true
  else
    say "no MongoDB for npm start / npm test: mongod cannot be downloaded and Go (to build FerretDB 2) is missing; install Go or set MONGODB_URI"
  fi
}

# The tests that start database servers of their own (test/faults/, test/scripts/) run the embedded database
# whatever npm test's MongoDB is: built wherever Go is installed.
provision_embedded_for_tests() {
  if [[ -n "$(find_go)" ]]; then (build_embedded) || true; fi
}

mkdir -p "$DATA"
case "${1:-all}" in
  all)
    provision_redis
    provision_mongo
    ;;
  redis) provision_redis ;;
  test)
    provision_redis
    provision_mongo
    provision_embedded_for_tests
    provision_browser
    ;;
  embedded) build_embedded ;;
  browser) provision_browser ;;
  *) fail "usage: scripts/provision.sh [all|test|redis|embedded|browser]" ;;
esac
