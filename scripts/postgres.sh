#!/usr/bin/env bash
# A throw-away PostgreSQL cluster on loopback, for the tests and benchmarks.
#   scripts/postgres.sh start <dir>   installs PostgreSQL 15 from Debian's packages when missing,
#                                     creates a cluster in <dir>, starts it on a free port and
#                                     prints its URL (user palaver, no password, loopback only)
#   scripts/postgres.sh stop <dir>    stops it (the caller removes <dir>)
# The cluster trades durability for speed (no fsync): it holds nothing worth keeping.
set -euo pipefail

PG_MAJOR=15
bin=/usr/lib/postgresql/$PG_MAJOR/bin

command=${1:?usage: scripts/postgres.sh start|stop <dir>}
dir=${2:?usage: scripts/postgres.sh start|stop <dir>}

# PostgreSQL refuses to run as root; as root, the cluster belongs to Debian's postgres user.
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case $command in
  start)
    if [ ! -x "$bin/postgres" ]; then
      echo "Installing PostgreSQL $PG_MAJOR from Debian's packages…" >&2
      apt-get update -qq >&2
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "postgresql-$PG_MAJOR" >&2
    fi
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then
      chown postgres: "$dir"
      # mktemp's folders are root's alone; the postgres user must pass through to its own.
      chmod go+x "$(dirname "$dir")"
    fi
    as_owner "$bin/initdb" --pgdata="$dir/data" --username=palaver --auth=trust --encoding=UTF8 \
      --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_owner "$bin/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait --silent start \
      -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir \
          -c max_connections=400 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      || { cat "$dir/server.log" >&2; exit 1; }
    echo "postgres://palaver@127.0.0.1:$port/postgres"
    ;;
  stop)
    if [ -f "$dir/data/postmaster.pid" ]; then
      as_owner "$bin/pg_ctl" --pgdata="$dir/data" --mode=immediate --wait --silent stop
    fi
    ;;
  *)
    echo "usage: scripts/postgres.sh start|stop <dir>" >&2
    exit 2
    ;;
esac
