#!/usr/bin/env bash
# The README's quickstart from a clean clone, with nothing started by hand:
# clones this repository into a temporary directory and runs `npm install && npm start`
# there on free ports (MONGODB_URI / REDIS_URL name 127.0.0.1 ports where nothing
# listens, so `npm start` starts its embedded MongoDB and Redis itself, beside any
# services already running). Then, through the started service: a project
# (hc-admin), a check (API), a ping, the ping read back; Ctrl-C (SIGINT) must
# shut it down cleanly and leave none of its ports listening (nor its PostgreSQL cluster running, when it
# runs the embedded database, FerretDB 2 on DocumentDB, in one). Then a kill -9 of the whole service and a restart on the same data, where the check
# must still be there.
set -euo pipefail

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="$(mktemp -d /tmp/hc-fresh-clone.XXXXXX)"
say() { printf 'fresh-clone: %s\n' "$*"; }
fail() { printf 'fresh-clone: error: %s\n' "$*" >&2; [[ -f "$WORK/start.log" ]] && tail -n 30 "$WORK/start.log" >&2; exit 1; }
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# A port nothing listens on, below the kernel's ephemeral range (an outgoing connection of
# the started service, to its database or Redis, could otherwise hold the port it must listen on).
EPHEMERAL_LOW="$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)"
free_port() {
  local p
  while :; do p=$((10000 + RANDOM % (EPHEMERAL_LOW - 10000))); listening "$p" || { echo "$p"; return; }; done
}

APP_PID=
# The PostgreSQL cluster with DocumentDB that FerretDB 2 runs on when no mongod can be had (.data/documentdb, or where that symlink points).
PG_DIR="$WORK/hc/.data/documentdb"
# Its postmaster's pid while it runs (it listens on a port of its own choosing).
postmaster_pid() {
  local pid
  pid="$(head -n 1 "$PG_DIR/postmaster.pid" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null && echo "$pid"
  return 0
}
# Pids of the embedded servers (they run in process groups of their own): those listening on their ports, and PostgreSQL's.
server_pids() {
  { for port in "$MONGO_PORT" "$REDIS_PORT"; do ss -ltnpH "sport = :$port" | { grep -o "pid=[0-9]*" || true; } | cut -d= -f2; done; postmaster_pid; } | sort -u
}
# Ctrl-C in a terminal: SIGINT to npm start's process group; waits until the group is gone.
stop_app() {
  kill -INT -- "-$APP_PID" 2>/dev/null || true
  for _ in $(seq 1 150); do
    kill -0 -- "-$APP_PID" 2>/dev/null || { APP_PID=; return 0; }
    sleep 0.1
  done
  return 1
}
cleanup() {
  if [[ -n "$APP_PID" ]]; then stop_app || kill -KILL -- "-$APP_PID" 2>/dev/null; fi
  local leftover
  leftover="$(server_pids)"
  [[ -z "$leftover" ]] || kill -KILL $leftover 2>/dev/null || true
  # As root, when the postgres user cannot reach this clone, the cluster lives in its home and .data/documentdb points there.
  local outside
  outside="$(readlink -f "$PG_DIR" 2>/dev/null || true)"
  [[ -L "$PG_DIR" && "$outside" == */hc-monitor-*/pg ]] && rm -rf "${outside%/pg}"
  rm -rf "$WORK"
}
trap cleanup EXIT

# Four distinct free ports.
while :; do
  PORT="$(free_port)" MONGO_PORT="$(free_port)" REDIS_PORT="$(free_port)" SMTP_PORT="$(free_port)"
  [[ "$(printf '%s\n' "$PORT" "$MONGO_PORT" "$REDIS_PORT" "$SMTP_PORT" | sort -u | wc -l)" == 4 ]] && break
done
export PORT SMTP_PORT MONGODB_URI="mongodb://127.0.0.1:$MONGO_PORT/hc" REDIS_URL="redis://127.0.0.1:$REDIS_PORT"
export LOG_LEVEL=info
ORIGIN="http://127.0.0.1:$PORT"

say "cloning into $WORK/hc"
git clone --quiet "$SRC" "$WORK/hc"
cd "$WORK/hc"

say "npm install"
npm install --no-audit --no-fund >"$WORK/install.log" 2>&1 || { tail -n 30 "$WORK/install.log" >&2; fail "npm install failed"; }

# Starts `npm start` in its own process group and waits for the API (the first start builds and provisions).
start() {
  setsid npm start >>"$WORK/start.log" 2>&1 </dev/null &
  APP_PID=$!
  disown "$APP_PID"
  for _ in $(seq 1 300); do
    [[ "$(curl -s "$ORIGIN/api/v3/status/" || true)" == OK ]] && return 0
    kill -0 "$APP_PID" 2>/dev/null || fail "npm start exited"
    sleep 1
  done
  fail "npm start did not answer on $ORIGIN within 300 s"
}

say "npm start (web $PORT, smtpd $SMTP_PORT, embedded MongoDB $MONGO_PORT and Redis $REDIS_PORT)"
start
grep -q '"service":"redis-server"' "$WORK/start.log" || fail "npm start did not start its own redis-server"
grep -Eq '"service":"(ferretdb|mongodb-memory-server)"' "$WORK/start.log" || fail "npm start did not start an embedded MongoDB"
database_line="$(grep -o '"msg":"database: [^"]*"' "$WORK/start.log" || true)"
[[ "$(grep -c . <<<"$database_line")" == 1 ]] || fail "npm start did not say in one line which database it runs"
say "${database_line:7:-1}"

project="$(node dist/scripts/hc-admin.js project create --name fresh-clone)"
api_key="$(node -e 'console.log(JSON.parse(process.argv[1]).api_key)' "$project")"
check="$(curl -sf -X POST "$ORIGIN/api/v3/checks/" -H "X-Api-Key: $api_key" -d '{"name": "fresh", "timeout": 3600}')"
ping_url="$(node -e 'console.log(JSON.parse(process.argv[1]).ping_url)' "$check")"
uuid="${ping_url##*/}"
[[ "$(curl -s "$ORIGIN/ping/$uuid")" == OK ]] || fail "ping was not answered OK"
n_pings="$(curl -sf "$ORIGIN/api/v3/checks/$uuid" -H "X-Api-Key: $api_key" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).n_pings))')"
[[ "$n_pings" == 1 ]] || fail "the check has $n_pings pings, expected 1"
say "project, check and ping through the started service: OK"

# The web app's first user (README, Web app): one hc-admin command, then sign in with the printed password.
user="$(node dist/scripts/hc-admin.js user create --email first@example.org)"
password="$(node -e 'console.log(JSON.parse(process.argv[1]).password)' "$user")"
jar="$WORK/cookies.txt"
csrf="$(curl -sf -c "$jar" "$ORIGIN/signin/" | grep -o 'name="_csrf" value="[^"]*"' | head -n 1 | sed 's/.*value="//; s/"$//')"
[[ -n "$csrf" ]] || fail "the sign-in page has no form"
signed_in="$(curl -s -b "$jar" -c "$jar" -o /dev/null -w '%{http_code} %{redirect_url}' "$ORIGIN/signin/" \
  --data-urlencode "_csrf=$csrf" --data-urlencode "email=first@example.org" --data-urlencode "password=$password")"
[[ "$signed_in" == "303 $ORIGIN/projects/" ]] || fail "signing in as the first user answered $signed_in"
[[ "$(curl -s -b "$jar" -o /dev/null -w '%{http_code}' "$ORIGIN/projects/")" == 200 ]] || fail "the project list did not open after signing in"
say "hc-admin user create, then sign-in through the started service: OK"

stop_app || fail "npm start did not exit within 15 s of Ctrl-C"
[[ "$(grep -c '"msg":"shut down"' "$WORK/start.log")" == 1 ]] || fail "npm start did not shut down cleanly"
for port in "$PORT" "$SMTP_PORT" "$MONGO_PORT" "$REDIS_PORT"; do
  listening "$port" && fail "port $port still listening after npm start exited"
done
[[ -z "$(postmaster_pid)" ]] || fail "PostgreSQL still running after npm start exited"
say "Ctrl-C: clean shutdown, nothing left listening"

start
# Every process at once: npm start's group, and the embedded servers (their own groups) found by port, PostgreSQL's postmaster by its pid file.
pids="$(server_pids)"
kill -KILL -- "-$APP_PID" $pids
APP_PID=
sleep 1
start
status="$(curl -s -o /dev/null -w '%{http_code}' "$ORIGIN/api/v3/checks/$uuid" -H "X-Api-Key: $api_key")"
[[ "$status" == 200 ]] || fail "after kill -9 and restart the check answers $status"
stop_app || fail "npm start did not exit within 15 s of Ctrl-C after the restart"
[[ -z "$(postmaster_pid)" ]] || fail "PostgreSQL still running after npm start exited"
say "kill -9 of every process and a restart on the same data: the check is still there"
