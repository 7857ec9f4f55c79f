#!/usr/bin/env bash
# Installs what the project needs and builds it; safe to run again (each step skips what is done).
# Used by both README commands, so a fresh machine of this kind needs nothing done by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/common.sh
COMPONENT=setup

# The pnpm that wrote pnpm-lock.yaml, so a frozen install reads it the same way everywhere.
pnpm_version=12.21.0
if ! command -v pnpm >/dev/null || [ "$(pnpm --version 2>/dev/null)" != "$pnpm_version" ]; then
  log "installing pnpm $pnpm_version"
  npm install -g "pnpm@$pnpm_version" >/dev/null 2>&1 || die "npm could not install pnpm $pnpm_version"
fi

# ClickHouse and Redis are installed by their own scripts under scripts/infra when they start.
apt_install protoc protobuf-compiler
apt_install java openjdk-17-jre-headless
apt_install mvn maven
apt_install psql postgresql-client
apt_install openssl openssl
# Headless browser for the /docs page test (playwright-core drives it; it downloads no browser of its own).
apt_install chromium chromium

log "installing workspace packages"
CI=true pnpm install --frozen-lockfile --reporter=append-only >/dev/null || die "pnpm install failed; run 'pnpm install' to see why"

log "building"
bash scripts/build.sh || die "the TypeScript build failed; run 'bash scripts/build.sh' to see why"
