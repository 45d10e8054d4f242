#!/usr/bin/env bash
# Acceptance test of the OpenSDRS vCenter simulator from outside, with govc
# (github.com/vmware/govmomi/govc@v0.46.3) as the independent client.
#
# Builds target/vcsim, installs govc (and stock vcsim) into .bin, starts our
# simulator on a free loopback port with testdata/two-disks.json, and checks:
#   1. relocating one of vm1's two disks: that disk's file and datastore change,
#      the other's do not, both datastores' free space changes by the disk size,
#      the files move between the datastore directories;
#   2. whole-VM relocation with `govc vm.migrate -ds`;
#   3. insufficient space and an inaccessible datastore end as task faults with
#      nothing changed;
#   4. a datastore added at run time (datastore.create on two hosts, object.mv into
#      the pod): both hosts mounted, the pod lists it once and counts its capacity,
#      and a disk moves onto it;
#   5. datastore maintenance mode with govc datastore.maintenance.enter/exit: entering
#      until empty, no migration onto it, exit;
#   6. a running VM's swap file: made in its home at power-on (the VM's memory), taking
#      its room from the datastore, moving with the home, gone at power-off;
#   7. performance counters: a sample published through POST /opensdrs/perf for one of vm1's
#      disks and a datastore of h1 reads back equal with `govc metric.sample -json`; bad bodies
#      are refused (400, 409); -perf-omit-counter removes a counter from `govc metric.ls`;
#   8. `-stock`, and stock vcsim itself, only rewrite vm.datastore.
# govc has no per-disk locator option, so the single-disk relocation is issued
# with `target/vcsim relocate` (a minimal client); every check uses govc.
#
# Prints "N passed, M failed" last; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")"
HERE=$PWD

PASS=0
FAIL=0
PIDS=()
WORK=$(mktemp -d)

SUMMARY=0
cleanup() {
  local rc=$?
  local pid
  if [[ $SUMMARY -eq 0 ]]; then  # aborted by set -e: count it as a failure
    echo "FAIL - aborted (exit $rc) before the end"
    echo "$PASS passed, $((FAIL + 1)) failed"
    rc=1
  fi
  for pid in "${PIDS[@]}"; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT

ok()   { PASS=$((PASS + 1)); echo "ok   - $*"; }
bad()  { FAIL=$((FAIL + 1)); echo "FAIL - $*"; }
# expect NAME ACTUAL WANTED
expect() {
  if [[ "$2" == "$3" ]]; then ok "$1"; else bad "$1: got '$2', want '$3'"; fi
}
finish() {
  SUMMARY=1
  echo "$PASS passed, $FAIL failed"
  [[ $FAIL -eq 0 ]]
}

command -v jq >/dev/null || { echo "FAIL - jq is required"; exit 1; }

# --- build -------------------------------------------------------------------
./build.sh
mkdir -p .bin
if [[ ! -x .bin/govc ]] || ! .bin/govc version 2>/dev/null | grep -q '0\.46\.3'; then
  GOBIN=$HERE/.bin go install github.com/vmware/govmomi/govc@v0.46.3
fi
if [[ ! -x .bin/vcsim-stock ]]; then
  GOBIN=$WORK/gobin go install github.com/vmware/govmomi/vcsim@v0.46.3
  mv "$WORK/gobin/vcsim" .bin/vcsim-stock
fi
GOVC=$HERE/.bin/govc
export GOVC_INSECURE=1 GOVC_PERSIST_SESSION=false

# start_sim NAME ARGS... : starts a simulator, sets URL to its URL.
start_sim() {
  local name=$1; shift
  local out=$WORK/$name.out
  : >"$out"  # exists before the background process opens it
  "$@" >>"$out" 2>"$WORK/$name.err" &
  PIDS+=("$!")
  local i
  for i in $(seq 1 300); do
    URL=$(sed -n 's/^VCSIM_URL=//p; s/^export GOVC_URL=\([^ ]*\).*/\1/p' "$out" | head -1)
    [[ -n "$URL" ]] && return 0
    sleep 0.1
  done
  echo "simulator $name did not start:"; cat "$WORK/$name.err"
  exit 1
}

govc() { "$GOVC" "$@"; }
disk_file() { govc device.info -vm "$1" -json 'disk-*' | jq -r --arg f "/$2.vmdk" '.devices[] | select(.backing.fileName | endswith($f)) | .backing.fileName'; }
disk_ds()   { govc device.info -vm "$1" -json 'disk-*' | jq -r --arg f "/$2.vmdk" '.devices[] | select(.backing.fileName | endswith($f)) | .backing.datastore.value'; }
ds_ref()    { govc datastore.info -json "$1" | jq -r '.datastores[0].self.value'; }
ds_free()   { govc datastore.info -json "$1" | jq -r '.datastores[0].summary.freeSpace'; }
ds_dir()    { govc datastore.info -json "$1" | jq -r '.datastores[0].summary.url'; }
ds_acc()    { govc datastore.info -json "$1" | jq -r '.datastores[0].summary.accessible'; }
vm_ds()     { govc object.collect -s "vm/$1" datastore | tr -d ' '; }
vm_path()   { govc object.collect -s "vm/$1" config.files.vmPathName; }
tree()      { (cd "$1" && find . -type f | sort | tr '\n' ' '); }
state() {   # everything a failed relocation must leave alone
  echo "$(govc device.info -vm vm1 -json 'disk-*' | jq -c '[.devices[].backing | {fileName, datastore}]')"
  echo "$(vm_ds vm1) $(vm_path vm1)"
  local d
  for d in ds1 ds2 small; do echo "$d $(ds_free $d) $(tree "$(ds_dir $d)")"; done
}
GiB=$((1024 * 1024 * 1024))

# --- ours ----------------------------------------------------------------------
start_sim ours ./target/vcsim -inventory testdata/two-disks.json -relocate-rate-mbps 4096 -ds-root "$WORK"
export GOVC_URL=$URL
echo "# ours at $GOVC_URL"

DS1=$(ds_ref ds1); DS2=$(ds_ref ds2)
FREE1=$(ds_free ds1); FREE2=$(ds_free ds2)
DIR1=$(ds_dir ds1); DIR2=$(ds_dir ds2)
expect "initial disk1 file" "$(disk_file vm1 disk1)" "[ds1] vm1/disk1.vmdk"
expect "initial disk2 file" "$(disk_file vm1 disk2)" "[ds1] vm1/disk2.vmdk"
expect "disk1 has a real sparse backing file of its size" "$(stat -c %s "$DIR1/vm1/disk1-flat.vmdk")" "$((2 * GiB))"

# 1. one disk, per-disk locator
./target/vcsim relocate -vm vm1 -disk disk1=ds2 >/dev/null
expect "disk1 file after per-disk relocation" "$(disk_file vm1 disk1)" "[ds2] vm1/disk1.vmdk"
expect "disk1 backing datastore" "$(disk_ds vm1 disk1)" "$DS2"
expect "disk2 file unchanged" "$(disk_file vm1 disk2)" "[ds1] vm1/disk2.vmdk"
expect "disk2 backing datastore unchanged" "$(disk_ds vm1 disk2)" "$DS1"
expect "vm home unchanged" "$(vm_path vm1)" "[ds1] vm1/vm1.vmx"
expect "vm.datastore" "$(vm_ds vm1)" "Datastore:$DS1,Datastore:$DS2"
expect "ds1 free space grew by disk1's size" "$(( $(ds_free ds1) - FREE1 ))" "$((2 * GiB))"
expect "ds2 free space shrank by disk1's size" "$(( FREE2 - $(ds_free ds2) ))" "$((2 * GiB))"
[[ -f "$DIR2/vm1/disk1-flat.vmdk" && -f "$DIR2/vm1/disk1.vmdk" ]] && ok "disk1 files in ds2's directory" || bad "disk1 files in ds2's directory"
[[ ! -e "$DIR1/vm1/disk1-flat.vmdk" && ! -e "$DIR1/vm1/disk1.vmdk" ]] && ok "disk1 files gone from ds1's directory" || bad "disk1 files gone from ds1's directory"
[[ -f "$DIR1/vm1/disk2-flat.vmdk" && -f "$DIR1/vm1/vm1.vmx" ]] && ok "disk2 and home files still in ds1" || bad "disk2 and home files still in ds1"
govc datastore.ls -ds ds2 vm1 | grep -qx 'disk1.vmdk' && ok "govc datastore.ls shows disk1 on ds2" || bad "govc datastore.ls shows disk1 on ds2"
govc object.collect -json vm/vm1 layoutEx | jq -r '.[0].val.file[].name' | grep -qx '\[ds2\] vm1/disk1-flat.vmdk' \
  && ok "layoutEx lists [ds2] vm1/disk1-flat.vmdk" || bad "layoutEx lists [ds2] vm1/disk1-flat.vmdk"

# 2. whole VM with govc vm.migrate
govc vm.migrate -ds ds2 vm1 >/dev/null
expect "whole VM: home" "$(vm_path vm1)" "[ds2] vm1/vm1.vmx"
expect "whole VM: disk2 file" "$(disk_file vm1 disk2)" "[ds2] vm1/disk2.vmdk"
expect "whole VM: vm.datastore" "$(vm_ds vm1)" "Datastore:$DS2"
expect "whole VM: ds1 free space grew by both disks since the start" "$(( $(ds_free ds1) - FREE1 ))" "$((5 * GiB))"
expect "whole VM: ds1 directory empty" "$(tree "$DIR1")" ""
govc vm.migrate -ds ds1 vm1 >/dev/null
expect "and back: disk1 file" "$(disk_file vm1 disk1)" "[ds1] vm1/disk1.vmdk"
expect "and back: free space as at start" "$(ds_free ds1) $(ds_free ds2)" "$FREE1 $FREE2"

# 3a. insufficient space
BEFORE=$(state)
if out=$(govc vm.migrate -ds small vm1 2>&1 | tail -1); then bad "insufficient space: migrate succeeded"; else
  [[ "$out" == *"Insufficient disk space on datastore 'small'"* ]] && ok "insufficient space: task fault ($out)" || bad "insufficient space: unexpected error: $out"
fi
expect "insufficient space: nothing changed" "$(state)" "$BEFORE"

# 3b. inaccessible datastore: its directory vanishes
BEFORE=$(state)
mv "$DIR2" "$DIR2.gone"
for i in $(seq 1 50); do [[ "$(ds_acc ds2)" == false ]] && break; sleep 0.1; done
expect "vanished directory: summary.accessible" "$(ds_acc ds2)" "false"
if out=$(./target/vcsim relocate -vm vm1 -disk disk1=ds2 2>&1); then bad "vanished: relocation succeeded"; else
  [[ "$out" == *"Unable to access datastore 'ds2'"* ]] && ok "vanished: task fault ($out)" || bad "vanished: unexpected error: $out"
fi
mv "$DIR2.gone" "$DIR2"
for i in $(seq 1 50); do [[ "$(ds_acc ds2)" == true ]] && break; sleep 0.1; done
expect "vanished: nothing changed" "$(state)" "$BEFORE"

# 3c. inaccessible datastore: marked through the admin endpoint
ADMIN=$(echo "$GOVC_URL" | sed -E 's#^(https?://)[^@]*@#\1#; s#/sdk$##')/opensdrs/datastore
curl -ksf -X POST -d name=ds2 -d accessible=false "$ADMIN" >/dev/null
expect "admin: summary.accessible" "$(ds_acc ds2)" "false"
if out=$(govc vm.migrate -ds ds2 vm1 2>&1 | tail -1); then bad "admin: migrate succeeded"; else
  [[ "$out" == *"Unable to access datastore 'ds2'"* ]] && ok "admin: task fault ($out)" || bad "admin: unexpected error: $out"
fi
expect "admin: nothing changed" "$(state)" "$BEFORE"
curl -ksf -X POST -d name=ds2 -d accessible=true "$ADMIN" >/dev/null
govc vm.migrate -ds ds2 vm1 >/dev/null && ok "accessible again: migrate works" || bad "accessible again: migrate works"

# 4. a datastore added at run time, as an administrator adds one: created on each host that
#    sees it, moved into the datastore cluster, sized through the admin endpoint; then a disk moves onto it
NEWDIR=$WORK/newds; mkdir -p "$NEWDIR"
govc datastore.create -type local -name newds -path "$NEWDIR" /DC0/host/C0/h1 /DC0/host/C0/h2 >/dev/null
govc object.mv /DC0/datastore/newds /DC0/datastore/POD0 >/dev/null
NEW=$(ds_ref newds)
expect "added datastore: in the pod" "$(govc ls /DC0/datastore/POD0 | sort | tr '\n' ' ')" "/DC0/datastore/POD0/ds1 /DC0/datastore/POD0/ds2 /DC0/datastore/POD0/newds "
expect "added datastore: pod childEntity lists each datastore once" \
  "$(govc object.collect -json /DC0/datastore/POD0 childEntity | jq -r '[.[0].val._value[].value] | (length == (unique | length))')" "true"
expect "added datastore: datastore.host lists both hosts" \
  "$(govc datastore.info -json newds | jq -r '[.datastores[0].host[].mountInfo.path] | length') $(govc datastore.info -json newds | jq -r '.datastores[0].host[0].mountInfo.path')" "2 $NEWDIR"
expect "added datastore: parent is the pod" "$(govc object.collect -s /DC0/datastore/POD0/newds parent)" "$(govc ls -i /DC0/datastore | grep '^StoragePod:')"
curl -ksf -X POST -d name=newds -d capacityGB=20 "$ADMIN" >/dev/null
expect "added datastore: capacity set through the admin endpoint" "$(ds_free newds)" "$((20 * GiB))"
POD_CAP=$(govc object.collect -json /DC0/datastore/POD0 summary | jq -r '.[0].val.capacity')
expect "added datastore: pod capacity counts it" "$POD_CAP" "$((100 * GiB + 50 * GiB + 20 * GiB))"
./target/vcsim relocate -vm vm1 -disk disk2=newds >/dev/null
expect "added datastore: a disk moved onto it" "$(disk_file vm1 disk2)" "[newds] vm1/disk2.vmdk"
expect "added datastore: its free space shrank by the disk" "$(ds_free newds)" "$((17 * GiB))"

# 5. datastore maintenance mode with stock govc (datastore.maintenance.enter waits for the enter task)
ds_maint() { govc datastore.info -json "$1" | jq -r '.datastores[0].summary.maintenanceMode'; }
expect "maintenance: ds1 starts normal" "$(ds_maint ds1)" "normal"
govc datastore.maintenance.enter -ds ds1 >/dev/null && ok "maintenance: an empty ds1 enters at once" || bad "maintenance: an empty ds1 enters at once"
expect "maintenance: ds1 in maintenance" "$(ds_maint ds1)" "inMaintenance"
if out=$(govc vm.migrate -ds ds1 vm2 2>&1 | tail -1); then bad "maintenance: migrate onto ds1 succeeded"; else
  [[ "$out" == *"maintenance mode"* ]] && ok "maintenance: migrate onto ds1 refused ($out)" || bad "maintenance: migrate onto ds1: $out"
fi
govc datastore.maintenance.exit -ds ds1 >/dev/null
expect "maintenance: ds1 normal after exit" "$(ds_maint ds1)" "normal"
# newds holds vm1's disk2: entering waits until it has moved off
govc datastore.maintenance.enter -ds newds >"$WORK/enter.log" 2>&1 &
ENTER=$!
for _ in $(seq 1 50); do [[ "$(ds_maint newds)" == enteringMaintenance ]] && break; sleep 0.1; done
expect "maintenance: newds entering while disk2 is on it" "$(ds_maint newds)" "enteringMaintenance"
sleep 0.5
kill -0 "$ENTER" 2>/dev/null && ok "maintenance: govc still waits for the enter task" || bad "maintenance: govc returned while disk2 is on newds"
./target/vcsim relocate -vm vm1 -disk disk2=ds1 >/dev/null
if wait "$ENTER"; then ok "maintenance: the enter task succeeded once newds was empty"; else bad "maintenance: enter task: $(cat "$WORK/enter.log")"; fi
expect "maintenance: newds in maintenance" "$(ds_maint newds)" "inMaintenance"
govc datastore.maintenance.exit -ds newds >/dev/null
expect "maintenance: newds normal after exit" "$(ds_maint newds)" "normal"

# 6. a running VM's swap file (vm2: 1024 MB of memory, its home and disk on ds2; h2 mounts ds1 and ds2)
swap_name() { govc object.collect -json vm/vm2 layoutEx | jq -r '.[0].val.file[] | select(.type == "swap") | .name'; }
swap_size() { govc object.collect -json vm/vm2 layoutEx | jq -r '.[0].val.file[] | select(.type == "swap") | .size'; }
FREE1=$(ds_free ds1); FREE2=$(ds_free ds2)
govc vm.power -on vm2 >/dev/null
SWAP=$(swap_name)
[[ "$SWAP" == "[ds2] vm2/vm2-"*".vswp" ]] && ok "swap: power-on made $SWAP in the home" || bad "swap: power-on made '$SWAP'"
expect "swap: layoutEx size is the VM's memory" "$(swap_size)" "$GiB"
expect "swap: layout.swapFile" "$(govc object.collect -s vm/vm2 layout.swapFile)" "$SWAP"
expect "swap: a sparse file of that size in the home directory" "$(stat -c %s "$DIR2/vm2/${SWAP##*/}")" "$GiB"
expect "swap: ds2 free space less the swap file" "$(( FREE2 - $(ds_free ds2) ))" "$GiB"
govc vm.migrate -ds ds1 vm2 >/dev/null
expect "swap: moved with the home" "$(swap_name)" "[ds1] vm2/${SWAP##*/}"
[[ -f "$DIR1/vm2/${SWAP##*/}" && ! -e "$DIR2/vm2/${SWAP##*/}" ]] && ok "swap: the file moved to ds1's directory" || bad "swap: the file did not move"
expect "swap: ds1 took the disk and the swap file" "$(( FREE1 - $(ds_free ds1) ))" "$((2 * GiB))"
expect "swap: ds2 got both back" "$(ds_free ds2)" "$(( FREE2 + GiB ))"
govc vm.power -off vm2 >/dev/null
for _ in $(seq 1 50); do [[ -z "$(swap_name)" ]] && break; sleep 0.1; done
expect "swap: gone from layoutEx at power-off" "$(swap_name)" ""
[[ ! -e "$DIR1/vm2/${SWAP##*/}" ]] && ok "swap: the file deleted at power-off" || bad "swap: the file left at power-off"
expect "swap: its room given back" "$(( FREE1 - $(ds_free ds1) ))" "$GiB"

# 7. performance counters published by the testbed, read back with govc metric.sample (realtime
#    interval 20, one disk instance); a VM's disk instance is scsi<bus>:<unit>, a host's
#    datastore instance the last element of its summary.url
PERF=$(echo "$GOVC_URL" | sed -E 's#^(https?://)[^@]*@#\1#; s#/sdk$##')/opensdrs/perf
publish() { curl -ks -o "$WORK/perf.msg" -w '%{http_code}' -H 'Content-Type: application/json' --data-binary "$1" "$PERF"; }
KEY=$(govc device.info -vm vm1 -json 'disk-*' | jq -r '.devices[] | select(.backing.fileName | endswith("/disk2.vmdk")) | .key')
# vCenter's name: the controller's type and bus number, the disk's unit number (pvscsi bus 0, unit 1)
INST=$(govc device.info -vm vm1 -json | jq -r '(.devices | map({(.key | tostring): .}) | add) as $d
  | .devices[] | select((.backing.fileName? // "") | endswith("/disk2.vmdk")) | "scsi\($d[.controllerKey | tostring].busNumber):\(.unitNumber)"')
expect "perf: disk2's instance name" "$INST" "scsi0:1"
UUID1=$(basename "$(ds_dir ds1)")
perf_body() { # TIMESTAMP READS LATENCY IOPS
  printf '{"timestamp":"%s","interval":20,"vms":[{"vm":"vm1","disks":[{"key":%s,"counters":{"virtualDisk.numberReadAveraged.average":%s,"virtualDisk.totalReadLatency.average":%s}}]}],"hosts":[{"host":"h1","datastores":[{"datastore":"ds1","counters":{"datastore.datastoreIops.average":%s}}]}]}' "$1" "$KEY" "$2" "$3" "$4"
}
expect "perf: first sample published" "$(publish "$(perf_body 2026-11-27T10:00:20.000Z 120 7 300)")" "204"
expect "perf: second sample published" "$(publish "$(perf_body 2026-11-27T10:00:40.000Z 130 -3 310)")" "204"
DISK_INST=$(govc metric.sample -json -i 20 -n 5 vm/vm1 virtualDisk.numberReadAveraged.average | jq -r '[.sample[0].value[].instance] | join(",")')
expect "perf: vm1's disk2 is the one instance with data, named scsi<bus>:<unit>" "$DISK_INST" "$INST"
SAMPLE=$(govc metric.sample -json -i 20 -n 5 -instance "$INST" vm/vm1 virtualDisk.numberReadAveraged.average virtualDisk.totalReadLatency.average)
expect "perf: govc metric.sample timestamps" "$(jq -r '[.sample[0].sampleInfo[] | "\(.interval)@\(.timestamp)"] | join(" ")' <<<"$SAMPLE")" "20@2026-11-27T10:00:20Z 20@2026-11-27T10:00:40Z"
expect "perf: govc metric.sample values" "$(jq -r '[.sample[0].value[] | "\(.name)[\(.instance)]=\(.value | map(tostring) | join(","))"] | sort | join(" ")' <<<"$SAMPLE")" \
  "virtualDisk.numberReadAveraged.average[$INST]=120,130 virtualDisk.totalReadLatency.average[$INST]=7,-3"
expect "perf: -n 1 is the newest sample" "$(govc metric.sample -json -i 20 -n 1 -instance "$INST" vm/vm1 virtualDisk.numberReadAveraged.average | jq -c '.sample[0].value[0].value')" "[130]"
expect "perf: the host's datastore counter by the datastore's UUID" \
  "$(govc metric.sample -json -i 20 -instance "$UUID1" /DC0/host/C0/h1 datastore.datastoreIops.average | jq -c '[.sample[0].value[] | {instance, value}]')" "[{\"instance\":\"$UUID1\",\"value\":[300,310]}]"
govc metric.ls vm/vm1 | grep -qx 'virtualDisk.readLatencyUS.latest' && ok "perf: govc metric.ls lists virtualDisk.readLatencyUS.latest" || bad "perf: govc metric.ls lacks virtualDisk.readLatencyUS.latest"
expect "perf: a counter of another group is refused" "$(publish '{"timestamp":"2026-11-27T10:01:00Z","interval":20,"vms":[{"vm":"vm1","disks":[{"instance":"scsi0:0","counters":{"cpu.usage.average":1}}]}]}') $(cat "$WORK/perf.msg")" \
  '400 vms[0].disks[0].counters: "cpu.usage.average" is not a virtualDisk counter'
expect "perf: an old timestamp is a conflict" "$(publish "$(perf_body 2026-11-27T10:00:40.000Z 1 1 1)")" "409"
expect "perf: nothing of the refused bodies stored" "$(govc metric.sample -json -i 20 -instance "$INST" vm/vm1 virtualDisk.numberReadAveraged.average | jq -c '.sample[0].value[0].value')" "[120,130]"
if out=$(./target/vcsim -perf-omit-counter virtualDisk.nope.latest 2>&1); then bad "perf: an unknown -perf-omit-counter name was accepted"; else
  [[ "$out" == *'"virtualDisk.nope.latest"'* ]] && ok "perf: an unknown -perf-omit-counter name is an error naming it" || bad "perf: -perf-omit-counter error: $out"
fi
start_sim omit ./target/vcsim -ds 1 -perf-omit-counter virtualDisk.readLatencyUS.latest,datastore.datastoreIops.average
expect "perf: -perf-omit-counter removes the counters from metric.ls" \
  "$(GOVC_URL=$URL govc metric.ls vm/DC0_H0_VM0 | grep -c -e '^virtualDisk.readLatencyUS.latest$' -e '^virtualDisk.writeLatencyUS.latest$') $(GOVC_URL=$URL govc metric.ls /DC0/host/DC0_H0/DC0_H0 | grep -c '^datastore.datastoreIops.average$')" "1 0"

# --- -stock, and stock vcsim: only vm.datastore changes ----------------------------
check_stock() { # NAME URL VM SRC DST
  local name=$1 vm=$3 src=$4 dst=$5
  local file before
  file=$(GOVC_URL=$2 disk_file "$vm" disk1)
  before=$(GOVC_URL=$2 ds_free "$src")
  GOVC_URL=$2 govc vm.migrate -ds "$dst" "$vm" >/dev/null
  expect "$name: vm.datastore rewritten" "$(GOVC_URL=$2 vm_ds "$vm")" "Datastore:$(GOVC_URL=$2 ds_ref "$dst")"
  expect "$name: disk file name kept" "$(GOVC_URL=$2 disk_file "$vm" disk1)" "$file"
  expect "$name: free space untouched" "$(GOVC_URL=$2 ds_free "$src")" "$before"
}
start_sim stockmode ./target/vcsim -stock -inventory testdata/two-disks.json -ds-root "$WORK"
check_stock "ours -stock" "$URL" vm1 ds1 ds2
[[ -f "$(GOVC_URL=$URL ds_dir ds1)/vm1/disk1-flat.vmdk" ]] && ok "ours -stock: no file moved" || bad "ours -stock: no file moved"

start_sim stock ./.bin/vcsim-stock -l 127.0.0.1:0 -ds 2
check_stock "stock vcsim" "$URL" DC0_H0_VM0 LocalDS_0 LocalDS_1

start_sim stockcounts ./target/vcsim -stock -ds 2
check_stock "ours -stock, counts model" "$URL" DC0_H0_VM0 LocalDS_0 LocalDS_1

start_sim counts ./target/vcsim -ds 2 -relocate-rate-mbps 0
GOVC_URL=$URL govc vm.migrate -ds LocalDS_1 DC0_H0_VM0 >/dev/null
expect "ours, counts model: disk moved" "$(GOVC_URL=$URL disk_file DC0_H0_VM0 disk1)" "[LocalDS_1] DC0_H0_VM0/disk1.vmdk"

finish
