#!/usr/bin/env bash
# Local MongoDB-compatible server and Redis for development and the bench.
#
#   scripts/services.sh        start what is not running yet, wait until both accept connections
#   scripts/services.sh stop   stop what this script started (pid files in .data/)
#
# The database is the embedded one `npm start` runs (FerretDB 2 on DocumentDB in a
# private PostgreSQL cluster, or mongod when mongodb-memory-server has one; built by
# scripts/provision.sh), data in .data/services/; Redis is the system's redis-server,
# installed with apt-get when missing and possible.
# A port that already has a listener is taken as the service being up (another
# checkout's instance, a system service): it is reused, never replaced.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA="$ROOT/.data"
# Other ports only for trying the script beside running services; the app's defaults use these two.
DB_PORT="${DATABASE_PORT:-27017}"
REDIS_PORT="${REDIS_PORT:-6379}"
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

start_database() {
  if listening "$DB_PORT"; then
    say "port $DB_PORT already listening: reusing that MongoDB-compatible server"
    ours_alive "$DATA/database.pid" database.js || rm -f "$DATA/database.pid"
    return
  fi
  bash "$ROOT/scripts/provision.sh" embedded || exit 1
  [[ -f "$ROOT/dist/scripts/database.js" ]] || (cd "$ROOT" && npm run --silent build) || fail "the build failed"
  say "starting the embedded database on 127.0.0.1:$DB_PORT (data .data/services, log .data/database.log)"
  launch database node "$ROOT/dist/scripts/database.js" "$DB_PORT" "$DATA/services"
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
    start_database
    start_redis
    wait_for database "$DB_PORT"
    wait_for redis "$REDIS_PORT"
    ;;
  stop)
    stop_one database database.js
    stop_one redis redis-server
    ;;
  *)
    fail "usage: scripts/services.sh [start|stop]"
    ;;
esac
