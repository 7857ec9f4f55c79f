#!/usr/bin/env bash
# Stops what scripts/up.sh started, in reverse order. Servers it did not start (the system
# PostgreSQL, a Redis already running) are left alone. Data stays in .data/ except the anvil
# chains, which always start empty.
#   bash scripts/down.sh
set -euo pipefail
COMPONENT=down
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
INFRA="${REPO_ROOT}/scripts/infra"

# Keep going when one component fails to stop, so one stuck server does not leave the others up.
failed=()
run() {
  local name="$1"
  shift
  "$@" || failed+=("${name}")
}

run solana bash "${INFRA}/solana.sh" down
run anvil bash "${INFRA}/anvil.sh" down
run kafka bash "${INFRA}/kafka.sh" down
run clickhouse bash "${INFRA}/clickhouse.sh" down
if [[ -f "${INFRA}/postgres.sh" ]]; then
  run postgres bash "${INFRA}/postgres.sh" down
fi
run redis bash "${INFRA}/redis.sh" down

((${#failed[@]} == 0)) || die "could not stop: ${failed[*]}"
log "all down"
