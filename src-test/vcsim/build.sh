#!/usr/bin/env bash
# Builds the OpenSDRS vCenter simulator to target/vcsim (and nothing else).
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p target
go build -trimpath -o target/vcsim .
