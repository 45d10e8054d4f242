#!/usr/bin/env bash
# Unit tests (Vitest); then, when SDRS_URL is set, the browser tests against that server
# (headless Chromium at $CHROMIUM, default /usr/bin/chromium; SDRS_USER, SDRS_PASSWORD).
set -euo pipefail
cd "$(dirname "$0")"
./build.sh
npm test
if [ -n "${SDRS_URL:-}" ]; then
  npm run test:e2e
else
  echo "test.sh: SDRS_URL not set — browser tests skipped"
fi
