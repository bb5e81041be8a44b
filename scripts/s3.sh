#!/usr/bin/env bash
# A throw-away S3-compatible server on loopback (moto's server mode, from PyPI at the versions
# scripts/s3/requirements.txt pins), for the file-storage tests.
#   scripts/s3.sh start <dir>   starts it on a free port with the bucket `palaver`; prints the
#                               environment the tests read (one NAME=value per line)
#   scripts/s3.sh stop <dir>    stops it
set -euo pipefail
cd "$(dirname "$0")/.."

command=${1:?usage: scripts/s3.sh start|stop <dir>}
dir=${2:?usage: scripts/s3.sh start|stop <dir>}
venv=scripts/s3/.venv

case $command in
  start)
    if [ ! -x "$venv/bin/moto_server" ] || [ scripts/s3/requirements.txt -nt "$venv/installed" ]; then
      echo "Installing the S3-compatible test server from PyPI…" >&2
      python3 -m venv "$venv"
      "$venv/bin/pip" install --quiet --disable-pip-version-check -r scripts/s3/requirements.txt >&2
      touch "$venv/installed"
    fi
    mkdir -p "$dir"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "$venv/bin/moto_server" -H 127.0.0.1 -p "$port" >"$dir/s3.log" 2>&1 &
    echo $! >"$dir/s3.pid"
    # Waits for the server, then makes the bucket (moto takes unsigned requests).
    python3 - "$port" <<'PY' || { cat "$dir/s3.log" >&2; exit 1; }
import sys, time, urllib.request
url = f"http://127.0.0.1:{sys.argv[1]}/palaver"
for _ in range(100):
    try:
        urllib.request.urlopen(urllib.request.Request(url, method="PUT"), timeout=2)
        break
    except OSError:
        time.sleep(0.1)
else:
    sys.exit("the S3-compatible server did not start")
PY
    echo "PALAVER_TEST_S3_URL=s3://palaver/uploads"
    echo "AWS_ENDPOINT=http://127.0.0.1:$port"
    echo "AWS_ALLOW_HTTP=true"
    echo "AWS_REGION=us-east-1"
    echo "AWS_ACCESS_KEY_ID=palaver-test"
    echo "AWS_SECRET_ACCESS_KEY=palaver-test"
    ;;
  stop)
    if [ -f "$dir/s3.pid" ]; then
      kill "$(cat "$dir/s3.pid")" 2>/dev/null || true
      rm -f "$dir/s3.pid"
    fi
    ;;
  *)
    echo "usage: scripts/s3.sh start|stop <dir>" >&2
    exit 2
    ;;
esac
