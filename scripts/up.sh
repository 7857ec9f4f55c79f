#!/usr/bin/env bash
# Brings up every piece of local infrastructure, in dependency order, each one waiting until it
# really answers. Safe to run again: what is already running is left as it is.
#   bash scripts/up.sh
set -euo pipefail
COMPONENT=up
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
INFRA="${REPO_ROOT}/scripts/infra"

started=${SECONDS}
step() {
  local name="$1" t0=${SECONDS}
  shift
  log "== ${name}"
  "$@" || die "step '${name}' failed (see the messages above)"
  log "== ${name}: done in $((SECONDS - t0))s"
}

create_topics() {
  local script="${REPO_ROOT}/services/core/dist/kafka/create-topics.js"
  # An escape hatch for while the topic code itself is broken: everything else can still come up.
  if [[ "${INFRA_SKIP_TOPICS:-}" == 1 ]]; then
    log "skipped (INFRA_SKIP_TOPICS=1)"
    return 0
  fi
  if [[ ! -f "${script}" && -f "${REPO_ROOT}/scripts/build.sh" ]]; then
    log "building the TypeScript code (for ${script#"${REPO_ROOT}/"})"
    bash "${REPO_ROOT}/scripts/build.sh"
  fi
  if [[ -f "${script}" ]]; then
    node "${script}" ||
      die "node ${script#"${REPO_ROOT}/"} failed (the project's topic code, not the broker: Kafka answered).
  Rebuild with 'bash scripts/build.sh' if the code changed; INFRA_SKIP_TOPICS=1 brings up the rest meanwhile."
  else
    log "skipped: ${script#"${REPO_ROOT}/"} does not exist yet"
  fi
}

postgres() {
  if [[ -f "${INFRA}/postgres.sh" ]]; then
    bash "${INFRA}/postgres.sh" up
  else
    log "skipped: scripts/infra/postgres.sh does not exist yet"
  fi
}

mkdir -p "${DATA_DIR}"
step redis bash "${INFRA}/redis.sh" up
step postgres postgres
step clickhouse bash "${INFRA}/clickhouse.sh" up
step kafka bash "${INFRA}/kafka.sh" up
step kafka-topics create_topics
step anvil bash "${INFRA}/anvil.sh" up
step solana bash "${INFRA}/solana.sh" up
log "all up in $((SECONDS - started))s"
