#!/usr/bin/env bash
# Starts the management server with the development data of e2e/dev-seed.sql, for working on
# the plugin's e2e tests before the server syncs a real inventory. Prints the URL; the server's
# PID is in $DATA/server.pid (stop it with: kill "$(cat $DATA/server.pid)").
#   plugin-ui/e2e/dev-server.sh [JAR] [DATA_DIR] [PORT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
JAR=${1:-$here/../../server/target/sdrs-server.jar}
DATA=${2:-/tmp/sdrs-ui-dev}
PORT=${3:-18080}
: "${SDRS_ADMIN_PASSWORD:=admin}"
export SDRS_ADMIN_PASSWORD
rm -rf "$DATA" && mkdir -p "$DATA"
start() {
  java -jar "$JAR" --server.port="$PORT" --sdrs.data-dir="$DATA" --sdrs.grpc.port=0 >"$DATA/server.log" 2>&1 &
  echo $! >"$DATA/server.pid"
  for _ in $(seq 1 120); do
    if curl -fs "http://127.0.0.1:$PORT/actuator/health" >/dev/null 2>&1; then return 0; fi
    sleep 1
  done
  echo "server did not start; see $DATA/server.log" >&2
  return 1
}
stop() {
  local pid; pid=$(cat "$DATA/server.pid")
  kill "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.5; done
}
start   # creates the schema (Flyway)
stop
h2=$(mktemp -d)
(cd "$h2" && unzip -q -o "$JAR" 'BOOT-INF/lib/h2-*.jar')
java -cp "$h2"/BOOT-INF/lib/h2-*.jar org.h2.tools.RunScript -url "jdbc:h2:file:$DATA/sdrs" -user sa -password '' -script "$here/dev-seed.sql"
rm -rf "$h2"
start
echo "http://127.0.0.1:$PORT"
