#!/usr/bin/env bash
# Starts a throwaway PostgreSQL instance for the store tests and prints, on stdout, one line:
#   export DATABASE_URL=postgres://decorum:...@127.0.0.1:<port>/decorum
# so that CI (or a developer) can run:  eval "$(bash .ci/start-postgres.sh)"
# Progress goes to stderr. Idempotent: a second run reuses the running instance.
#
# Runs as root on Debian bookworm (only Debian's apt repositories are needed). PostgreSQL refuses
# to run as root, so the instance belongs to the `postgres` user. Nothing touches the distribution's
# own cluster: the instance lives in its own directory, on a free port, and listens on 127.0.0.1 only.
#
# Environment (optional):
#   DECORUM_PG_DIR   where the instance lives     (default /tmp/decorum-pg)
#   DECORUM_PG_PORT  the port to use              (default: the first free port from 55432)
#   DECORUM_PG_STOP=1  stop the instance and remove its directory, then exit
set -euo pipefail

log() { echo "start-postgres: $*" >&2; }

DIR="${DECORUM_PG_DIR:-/tmp/decorum-pg}"
DATA="$DIR/data"
DB=decorum
ROLE=decorum
PGUSER_OS=postgres

as_pg() {
  if [ "$(id -un)" = "$PGUSER_OS" ]; then "$@"; else runuser -u "$PGUSER_OS" -- "$@"; fi
}

find_bindir() {
  local pgc
  if pgc=$(command -v pg_config 2>/dev/null) && [ -x "$("$pgc" --bindir)/initdb" ]; then
    "$pgc" --bindir; return
  fi
  # Debian keeps initdb and pg_ctl out of PATH, under /usr/lib/postgresql/<major>/bin.
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

BIN="$(find_bindir || true)"
if [ -z "$BIN" ] || [ ! -x "$BIN/initdb" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    log "PostgreSQL is not installed and this script is not root: install the 'postgresql' package"
    exit 1
  fi
  log "installing postgresql (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update >&2
  apt-get install -y postgresql >&2
  BIN="$(find_bindir)"
fi
log "using $BIN"

if [ "${DECORUM_PG_STOP:-}" = "1" ]; then
  if [ -d "$DATA" ]; then as_pg "$BIN/pg_ctl" -D "$DATA" -m fast stop >&2 || true; fi
  rm -rf "$DIR"
  log "stopped and removed $DIR"
  exit 0
fi

port_free() {
  ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

if [ ! -f "$DATA/PG_VERSION" ]; then
  rm -rf "$DIR"
  mkdir -p "$DIR"
  # The password is random per instance; it is stored beside the data (readable by root and postgres).
  head -c 18 /dev/urandom | base64 | tr '+/' '-_' > "$DIR/password"
  if [ -n "${DECORUM_PG_PORT:-}" ]; then
    PORT="$DECORUM_PG_PORT"
  else
    PORT=55432
    while ! port_free "$PORT"; do PORT=$((PORT + 1)); done
  fi
  echo "$PORT" > "$DIR/port"
  chown -R "$PGUSER_OS": "$DIR"
  chmod 700 "$DIR"
  log "initdb in $DATA (port $PORT)"
  # fsync off and no synchronous commit: a throwaway test instance trades durability for speed.
  as_pg "$BIN/initdb" -D "$DATA" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
    -E UTF8 --locale=C.UTF-8 --no-sync >&2
  cat >> "$DATA/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $PORT
unix_socket_directories = '$DIR'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 100
CONF
fi

PORT="$(cat "$DIR/port")"
PASSWORD="$(cat "$DIR/password")"

if as_pg "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
  log "instance already running on port $PORT"
else
  log "starting instance on port $PORT"
  as_pg "$BIN/pg_ctl" -D "$DATA" -l "$DIR/server.log" -w -t 60 start >&2 || {
    log "failed to start; last lines of $DIR/server.log:"
    tail -n 20 "$DIR/server.log" >&2 || true
    exit 1
  }
fi

for _ in $(seq 1 60); do
  if as_pg "$BIN/pg_isready" -h "$DIR" -p "$PORT" -q; then break; fi
  sleep 0.5
done
as_pg "$BIN/pg_isready" -h "$DIR" -p "$PORT" >&2

psql_admin() { as_pg "$BIN/psql" -h "$DIR" -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 -qAt "$@"; }

if [ "$(psql_admin -c "select 1 from pg_roles where rolname = '$ROLE'")" != "1" ]; then
  log "creating role $ROLE"
  psql_admin -c "create role $ROLE login password '$PASSWORD'" >&2
fi
if [ "$(psql_admin -c "select 1 from pg_database where datname = '$DB'")" != "1" ]; then
  log "creating database $DB"
  psql_admin -c "create database $DB owner $ROLE" >&2
fi

URL="postgres://$ROLE:$PASSWORD@127.0.0.1:$PORT/$DB"
# The same check a client makes: TCP, password authentication, the database.
for _ in $(seq 1 60); do
  if PGPASSWORD="$PASSWORD" as_pg "$BIN/psql" "postgresql://$ROLE@127.0.0.1:$PORT/$DB" -qAt -c "select 1" >/dev/null 2>&1; then
    log "ready: $ROLE@127.0.0.1:$PORT/$DB"
    echo "export DATABASE_URL=$URL"
    exit 0
  fi
  sleep 0.5
done
log "the instance does not accept connections; see $DIR/server.log"
exit 1
