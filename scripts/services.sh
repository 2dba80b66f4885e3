#!/usr/bin/env bash
# Local MongoDB-compatible server (FerretDB) and Redis for development and CI.
#
#   scripts/services.sh        start what is not running yet, wait until both accept connections
#   scripts/services.sh stop   stop what this script started (pid files in .data/)
#
# FerretDB keeps its data in SQLite by default (what CI tests against). With
# FERRETDB_BACKEND=postgresql it uses a local PostgreSQL cluster instead (started
# here on 127.0.0.1:$POSTGRES_PORT, default 5433): FerretDB pushes every equality
# filter down to PostgreSQL but only bare `_id` filters to SQLite, so this is the
# backend `npm run bench` figures are taken on.
#
# A port that already has a listener is taken as the service being up (another
# checkout's instance, a system service): it is reused, never replaced.
# FerretDB is built from scripts/ferretdb/ into .data/bin/ferretdb on first use
# (the Go module proxy supplies its modules); Redis is the system's redis-server,
# installed with apt-get when missing and possible (scripts/provision.sh).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA="$ROOT/.data"
FERRET_BIN="$DATA/bin/ferretdb"
# Other ports only for trying the script beside running services; the app's defaults use these two.
FERRET_PORT="${FERRETDB_PORT:-27017}"
REDIS_PORT="${REDIS_PORT:-6379}"
BACKEND="${FERRETDB_BACKEND:-sqlite}"
PG_PORT="${POSTGRES_PORT:-5433}"
# PostgreSQL refuses to run as root; as root its cluster belongs to the postgres user, outside the checkout.
if [[ $EUID -eq 0 ]]; then PG_DATA=/var/tmp/hc-postgres; PG_AS=(runuser -u postgres --); else PG_DATA="$DATA/postgres"; PG_AS=(); fi
WAIT_SECONDS=60

say() { printf 'services: %s\n' "$*"; }
fail() { printf 'services: error: %s\n' "$*" >&2; exit 1; }

# True when something accepts TCP connections on 127.0.0.1:$1.
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# True when the pid in pid file $1 is alive and runs program $2 (guards against a reused pid).
ours_alive() {
  local pid
  [[ -f "$1" ]] || return 1
  pid="$(cat "$1")"
  [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null && grep -qa "$2" "/proc/$pid/cmdline" 2>/dev/null
}

# Starts "$@" in the background, output to .data/$name.log, pid to .data/$name.pid.
# The subshell execs the program, so $! is the program's own pid (setsid forks when
# it happens to lead its process group, which left a dead pid here); hangups and
# interrupts aimed at this shell's terminal are ignored so the service outlives it.
launch() {
  local name="$1"
  shift
  (trap '' HUP INT; exec "$@") >"$DATA/$name.log" 2>&1 </dev/null &
  echo $! >"$DATA/$name.pid"
}

start_ferretdb() {
  if listening "$FERRET_PORT"; then
    say "port $FERRET_PORT already listening: reusing that MongoDB-compatible server"
    ours_alive "$DATA/ferretdb.pid" ferretdb || rm -f "$DATA/ferretdb.pid"
    return
  fi
  bash "$ROOT/scripts/provision.sh" ferretdb || exit 1
  mkdir -p "$DATA/ferretdb"
  local backend_args=()
  if [[ "$BACKEND" == postgresql ]]; then
    start_postgres
    backend_args=(-postgresql-url "postgres://postgres@127.0.0.1:$PG_PORT/ferretdb")
  fi
  say "starting FerretDB ($BACKEND) on 127.0.0.1:$FERRET_PORT (data .data/ferretdb, log .data/ferretdb.log)"
  launch ferretdb "$FERRET_BIN" -listen "127.0.0.1:$FERRET_PORT" -data "$DATA/ferretdb" "${backend_args[@]}"
}

# A throwaway PostgreSQL cluster for FerretDB's postgresql backend (no fsync: benchmark use only).
start_postgres() {
  local bin
  bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
  [[ -x "$bin/postgres" ]] || fail "PostgreSQL is not installed (apt-get install -y postgresql)"
  if ! listening "$PG_PORT"; then
    if [[ ! -f "$PG_DATA/PG_VERSION" ]]; then
      mkdir -p "$PG_DATA"
      if [[ $EUID -eq 0 ]]; then chown postgres "$PG_DATA"; fi
      "${PG_AS[@]}" "$bin/initdb" -D "$PG_DATA" -A trust -U postgres >"$DATA/postgres-init.log" 2>&1 || fail "initdb failed (see .data/postgres-init.log)"
    fi
    say "starting PostgreSQL on 127.0.0.1:$PG_PORT (data $PG_DATA)"
    "${PG_AS[@]}" "$bin/pg_ctl" -D "$PG_DATA" -l "$PG_DATA/server.log" -w start \
      -o "-p $PG_PORT -k $PG_DATA -c listen_addresses=127.0.0.1 -c fsync=off" >/dev/null || fail "PostgreSQL did not start"
  fi
  "${PG_AS[@]}" "$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'ferretdb'" | grep -q 1 \
    || "${PG_AS[@]}" "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres ferretdb
}

start_redis() {
  if listening "$REDIS_PORT"; then
    say "port $REDIS_PORT already listening: reusing that Redis"
    ours_alive "$DATA/redis.pid" redis-server || rm -f "$DATA/redis.pid"
    return
  fi
  bash "$ROOT/scripts/provision.sh" redis
  command -v redis-server >/dev/null 2>&1 || exit 1
  mkdir -p "$DATA/redis"
  say "starting redis-server on 127.0.0.1:$REDIS_PORT (append-only file in .data/redis, log .data/redis.log)"
  # The settings the service requires (docs/configuration.md, "Redis settings"): AOF fsynced every second, no eviction,
  # and hz 100 so a delayed deadline job fires within 10 ms.
  launch redis redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --dir "$DATA/redis" \
    --appendonly yes --appendfsync everysec --maxmemory-policy noeviction --hz 100 --daemonize no
}

# Waits until $1 (a name) listens on port $2, failing early if the process we started died.
# Only liveness is checked here: until the child has exec'd, its command line is still
# this script's, so matching the program name (as `stop` does) would misread a healthy start.
wait_for() {
  local name="$1" port="$2" waited=0
  until listening "$port"; do
    if [[ -f "$DATA/$name.pid" ]] && ! kill -0 "$(cat "$DATA/$name.pid")" 2>/dev/null; then
      tail -n 20 "$DATA/$name.log" >&2 || true
      rm -f "$DATA/$name.pid"
      fail "$name exited before accepting connections (see .data/$name.log)"
    fi
    ((waited >= WAIT_SECONDS * 5)) && fail "$name did not listen on 127.0.0.1:$port within ${WAIT_SECONDS}s"
    sleep 0.2
    waited=$((waited + 1))
  done
  say "$name accepts connections on 127.0.0.1:$port"
}

stop_one() {
  local name="$1" program="$2" pid_file="$DATA/$1.pid" pid i
  if ! ours_alive "$pid_file" "$program"; then
    rm -f "$pid_file"
    say "$name: not started by this script, nothing to stop"
    return
  fi
  pid="$(cat "$pid_file")"
  kill -TERM "$pid"
  for ((i = 0; i < 50; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
  rm -f "$pid_file"
  say "$name stopped (pid $pid)"
}

case "${1:-start}" in
  start)
    mkdir -p "$DATA"
    start_ferretdb
    start_redis
    wait_for ferretdb "$FERRET_PORT"
    wait_for redis "$REDIS_PORT"
    ;;
  stop)
    stop_one ferretdb ferretdb
    stop_one redis redis-server
    if [[ -f "$PG_DATA/postmaster.pid" ]]; then
      "${PG_AS[@]}" "$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)/pg_ctl" -D "$PG_DATA" -m fast stop >/dev/null
      say "PostgreSQL stopped"
    fi
    ;;
  *)
    fail "usage: scripts/services.sh [start|stop]"
    ;;
esac
