#!/usr/bin/env bash
# PostgreSQL on 127.0.0.1:5432 (the machine's own server, trust auth, user postgres). `up` waits
# until it answers, creates the databases wallet_api and wallet_api_test when missing and applies
# the migrations in services/core/prisma/migrations to both (with the offline Prisma 6 tool package
# services/prisma-migrate). The server itself is the system's: this script never starts or stops it.
#   postgres.sh up|down|status
set -euo pipefail
COMPONENT=postgres
# shellcheck source=../lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

HOST=127.0.0.1
PORT=5432
USER_NAME=postgres
DATABASES=(wallet_api wallet_api_test)
DIR="$(component_dir postgres)"
MIGRATE_LOG="${DIR}/migrate.log"
READY_TIMEOUT="${POSTGRES_READY_TIMEOUT:-30}"
MIGRATE_DIR="${REPO_ROOT}/services/prisma-migrate"
MIGRATIONS_DIR="${REPO_ROOT}/services/core/prisma/migrations"

database_url() { echo "postgresql://${USER_NAME}@${HOST}:${PORT}/$1"; }

# psql against the maintenance database; -X so a personal ~/.psqlrc cannot change the output.
sql() { psql -X -q -t -A -v ON_ERROR_STOP=1 -h "${HOST}" -p "${PORT}" -U "${USER_NAME}" -d postgres -c "$1"; }
sql_in() { psql -X -q -t -A -v ON_ERROR_STOP=1 -h "${HOST}" -p "${PORT}" -U "${USER_NAME}" -d "$1" -c "$2"; }

ready() { sql 'select 1' >/dev/null 2>&1; }

database_exists() { [[ "$(sql "select 1 from pg_database where datname = '$1'")" == 1 ]]; }

wait_ready() {
  local deadline=$((SECONDS + READY_TIMEOUT))
  until ready; do
    if ((SECONDS >= deadline)); then
      local reason
      reason="$(sql 'select 1' 2>&1 | head -n 3 || true)"
      die "PostgreSQL does not answer on ${HOST}:${PORT} as user ${USER_NAME} after ${READY_TIMEOUT}s.
  psql said: ${reason:-nothing}
  This script does not start the server; start the system one (e.g. 'pg_ctlcluster 15 main start'
  or 'service postgresql start') and run it again."
    fi
    sleep 0.5
  done
}

create_database() {
  local name="$1" output
  database_exists "${name}" && return 0
  # Another `up` may create it between the check and here; that outcome is just as good.
  if output="$(sql "create database \"${name}\"" 2>&1)"; then
    log "created database ${name}"
  elif ! database_exists "${name}"; then
    die "could not create database ${name}: ${output}"
  fi
}

migrate() {
  local name="$1"
  [[ -x "${MIGRATE_DIR}/node_modules/.bin/prisma" ]] ||
    die "services/prisma-migrate has no node_modules; run 'pnpm install' at the repository root"
  printf '\n== %s prisma migrate deploy (%s)\n' "$(date -u +%FT%TZ)" "${name}" >>"${MIGRATE_LOG}"
  if ! (cd "${MIGRATE_DIR}" && DATABASE_URL="$(database_url "${name}")" \
    ./node_modules/.bin/prisma migrate deploy) >>"${MIGRATE_LOG}" 2>&1; then
    fail_with_log "prisma migrate deploy failed for ${name}" "${MIGRATE_LOG}"
  fi
  log "${name}: $(pending_summary "${name}")"
}

# "N of M migrations applied", from _prisma_migrations against the migration folders on disk.
pending_summary() {
  local name="$1" total applied
  total="$(find "${MIGRATIONS_DIR}" -mindepth 2 -maxdepth 2 -name migration.sql | wc -l)"
  applied="$(sql_in "${name}" "select count(*) from _prisma_migrations
    where finished_at is not null and rolled_back_at is null" 2>/dev/null || echo 0)"
  echo "${applied} of ${total} migrations applied"
}

cmd_up() {
  command -v psql >/dev/null 2>&1 || apt_install psql postgresql-client
  mkdir -p "${DIR}"
  lock_component "${DIR}"
  wait_ready
  local name
  for name in "${DATABASES[@]}"; do
    create_database "${name}"
    migrate "${name}"
  done
}

cmd_down() {
  log "the system PostgreSQL is not ours to stop; left running"
}

cmd_status() {
  if ! ready; then
    status_line postgres down "${HOST}:${PORT} does not answer"
    return
  fi
  local name details="${HOST}:${PORT}" state=up summary applied total
  for name in "${DATABASES[@]}"; do
    if ! database_exists "${name}"; then
      details+="; ${name} missing"
      state=down
      continue
    fi
    summary="$(pending_summary "${name}")"
    details+="; ${name} ${summary}"
    read -r applied _ total _ <<<"${summary}"
    [[ "${applied}" == "${total}" ]] || state=down
  done
  [[ "${state}" == up ]] || details+=" (run scripts/infra/postgres.sh up)"
  status_line postgres "${state}" "${details}"
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  *) usage_component ;;
esac
