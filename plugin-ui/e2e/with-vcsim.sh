#!/usr/bin/env bash
# The whole loop for the browser tests: our vCenter simulator (src-test/vcsim) with a small
# world, the management server connected to it (inventory synced from vCenter), one PENDING
# recommendation created through the server's REST API (until the balancing engine makes
# them), then `npm run test:e2e` on the pages the server serves at /ui/ — which applies it in the UI and checks with govc that the
# disk moved. Stops everything it started.
#   GOVC=/path/to/govc plugin-ui/e2e/with-vcsim.sh [SERVER_JAR]
# Needs: src-test/vcsim/target/vcsim (src-test/vcsim/build.sh), govc v0.46.3 ($GOVC or on PATH),
# a built dist/ (./build.sh) and /usr/bin/chromium (or $CHROMIUM).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
JAR=${1:-$repo/server/target/sdrs-server.jar}
VCSIM=${VCSIM:-$repo/src-test/vcsim/target/vcsim}
WORLD=${WORLD:-$repo/src-test/vcsim/testdata/two-disks.json}
export GOVC=${GOVC:-$(command -v govc || true)}
[ -x "$GOVC" ] || { echo "with-vcsim.sh: govc not found (set GOVC)" >&2; exit 2; }
[ -x "$VCSIM" ] || { echo "with-vcsim.sh: $VCSIM missing (run src-test/vcsim/build.sh)" >&2; exit 2; }
work=$(mktemp -d)
pids=()
cleanup() {
  status=$?
  if [ "$status" -ne 0 ] && [ -f "$work/server.log" ]; then
    # the server's side of a failed check (its log goes with the work directory)
    echo "with-vcsim.sh: e2e failed ($status); the server log's last 200 lines (without DEBUG):"
    grep -v ' DEBUG ' "$work/server.log" | tail -n 200
  fi
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do while kill -0 "$p" 2>/dev/null; do sleep 0.2; done; done
  rm -rf "$work"
}
trap cleanup EXIT
cp "$JAR" "$work/server.jar"   # a private copy: a rebuild of the jar must not pull it from under the JVM

"$VCSIM" -inventory "$WORLD" -url-file "$work/vcsim.url" -relocate-rate-mbps 500 >"$work/vcsim.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 60); do [ -s "$work/vcsim.url" ] && break; sleep 0.5; done
export GOVC_URL; GOVC_URL=$(cat "$work/vcsim.url")
export GOVC_INSECURE=1
# a Storage DRS rule in vCenter, which the Rules page must show (read by the server's inventory sync)
if [ "$WORLD" = "$repo/src-test/vcsim/testdata/two-disks.json" ]; then
  "$VCSIM" sdrs-rule -u "$GOVC_URL" -pod POD0 -vmdk-anti-affinity vm1=disk1,disk2 >/dev/null
  export SDRS_E2E_RULE=vm1-vmdk-anti-affinity
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export SDRS_USER=${SDRS_USER:-admin} SDRS_PASSWORD=${SDRS_PASSWORD:-e2e-$RANDOM$RANDOM}
SDRS_ADMIN_PASSWORD=$SDRS_PASSWORD java -jar "$work/server.jar" --server.port="$port" --sdrs.data-dir="$work/data" --sdrs.grpc.port=0 \
  --sdrs.vcenter.url="${GOVC_URL/\/\/user:pass@/\/\/}" --sdrs.vcenter.user=user --sdrs.vcenter.password=pass --sdrs.vcenter.insecure=true \
  >"$work/server.log" 2>&1 &
pids+=($!)
export SDRS_URL=http://127.0.0.1:$port
# the pages through the server's own /ui/, the address the demo prints (not dist/ served by the test)
export SDRS_UI_URL=${SDRS_UI_URL:-$SDRS_URL/ui/}
for _ in $(seq 1 120); do curl -fs "$SDRS_URL/actuator/health" >/dev/null 2>&1 && break; sleep 1; done
curl -fsS -u "$SDRS_USER:$SDRS_PASSWORD" -X POST "$SDRS_URL/api/v1/inventory/sync" >/dev/null
# one recommendation: the first disk of the first VM to another datastore of its cluster
python3 - <<'PY'
import json, os, urllib.request, base64
url, auth = os.environ['SDRS_URL'], base64.b64encode(f"{os.environ['SDRS_USER']}:{os.environ['SDRS_PASSWORD']}".encode()).decode()
def call(path, body=None):
    req = urllib.request.Request(url + path, data=None if body is None else json.dumps(body).encode(), method='GET' if body is None else 'POST',
                                 headers={'Authorization': 'Basic ' + auth, 'Content-Type': 'application/json'})
    return json.load(urllib.request.urlopen(req))
cluster = sorted(call('/api/v1/clusters'), key=lambda c: -c['datastores'])[0]
dss = call(f"/api/v1/datastores?cluster={cluster['id']}")
disk = next(d for d in call('/api/v1/disks') if d['datastore'] in {x['name'] for x in dss})
dest = next(x for x in dss if x['name'] != disk['datastore'])
r = call(f"/api/v1/clusters/{cluster['id']}/recommendations", {'reasonCode': 'balanceDatastoreIOLoad',
         'moves': [{'vmId': disk['vm'], 'diskKeys': [disk['diskKey']], 'destinationDatastoreId': dest['id']}]})
print(f"with-vcsim.sh: recommendation {r['id']}: {disk['vmName']} disk {disk['diskKey']} {disk['datastore']} -> {dest['name']}")
PY
cd "$here/.." && SDRS_E2E_REQUIRE_APPLY=1 npm run test:e2e
