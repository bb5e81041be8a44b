#!/usr/bin/env bash
# A throw-away PostgreSQL cluster on loopback, for the tests and benchmarks.
#   scripts/postgres.sh start <dir>   installs PostgreSQL 15 from Debian's packages when missing,
#                                     creates a cluster in <dir>, starts it on a free port and
#                                     prints its URL (user palaver, no password, loopback only,
#                                     TLS off); TLS is on too, with <dir>/ca.crt the CA of its
#                                     certificate (for 127.0.0.1), for a test to ask for it
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
    # A CA of its own and the server's certificate, for the test that connects over TLS.
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=palaver test CA" \
      -keyout "$dir/ca.key" -out "$dir/ca.crt" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout "$dir/server.key" -out "$dir/server.csr" 2>/dev/null
    openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial -days 2 \
      -extfile <(printf 'subjectAltName=IP:127.0.0.1') -out "$dir/server.crt" 2>/dev/null
    chmod 600 "$dir/server.key"
    [ "$(id -u)" = 0 ] && chown postgres: "$dir/server.key" "$dir/server.crt"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_owner "$bin/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait --silent start \
      -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir \
          -c max_connections=400 -c fsync=off -c synchronous_commit=off -c full_page_writes=off \
          -c ssl=on -c ssl_cert_file=$dir/server.crt -c ssl_key_file=$dir/server.key" \
      || { cat "$dir/server.log" >&2; exit 1; }
    echo "postgres://palaver@127.0.0.1:$port/postgres?sslmode=disable"
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
