#!/usr/bin/env bash
# PostgreSQL on 127.0.0.1:5432, user postgres, no password. A server that already answers there and
# lets that user in (the system's, or ours from an earlier run) is used as it is. When nothing
# answers, `up` installs PostgreSQL from Debian's packages if its server binaries are missing and
# starts a cluster of our own under .data/postgres/cluster (created on first use); `down` stops only
# that one. `up` then creates the databases wallet_api and wallet_api_test when missing and applies
# the migrations in services/core/prisma/migrations to both (with the offline Prisma 6 tool package
# services/prisma-migrate).
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
CLUSTER="${DIR}/cluster"
SERVER_LOG="${DIR}/postgres.log"
MIGRATE_LOG="${DIR}/migrate.log"
READY_TIMEOUT="${POSTGRES_READY_TIMEOUT:-60}"
MIGRATE_DIR="${REPO_ROOT}/services/prisma-migrate"
MIGRATIONS_DIR="${REPO_ROOT}/services/core/prisma/migrations"

database_url() { echo "postgresql://${USER_NAME}@${HOST}:${PORT}/$1"; }

# psql against the maintenance database; -X so a personal ~/.psqlrc cannot change the output.
sql() { psql -X -q -t -A -v ON_ERROR_STOP=1 -h "${HOST}" -p "${PORT}" -U "${USER_NAME}" -d postgres -c "$1"; }
sql_in() { psql -X -q -t -A -v ON_ERROR_STOP=1 -h "${HOST}" -p "${PORT}" -U "${USER_NAME}" -d "$1" -c "$2"; }

ready() { sql 'select 1' >/dev/null 2>&1; }

database_exists() { [[ "$(sql "select 1 from pg_database where datname = '$1'")" == 1 ]]; }

# The newest server installed from Debian's packages (they keep its binaries off PATH).
server_bin_dir() {
  local found
  found="$(find /usr/lib/postgresql -mindepth 3 -maxdepth 3 -path '*/bin/postgres' 2>/dev/null | sort -V | tail -n 1)"
  [[ -n "${found}" ]] || return 1
  dirname "${found}"
}

# postmaster.pid's first line is the postmaster's pid; the cluster path in its command line tells
# ours from any other PostgreSQL (another work tree's, the system's).
ours() {
  local pid
  pid="$(head -n 1 "${CLUSTER}/postmaster.pid" 2>/dev/null)" || return 1
  [[ "${pid}" =~ ^[0-9]+$ ]] || return 1
  proc_running "${pid}" || return 1
  grep -qF -- "${CLUSTER}" < <(tr '\0' ' ' <"/proc/${pid}/cmdline" 2>/dev/null)
}

# PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` system user
# that Debian's packages create; anyone else runs it as themselves.
as_server_user() {
  if [[ "$(id -u)" == 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

# As root the server runs as `postgres`, which cannot reach a work tree inside a private folder
# (a clone under `mktemp -d`, a home directory with mode 700): the cluster then lives under
# /var/lib/postgresql, named after the work tree so two clones never share one.
place_cluster() {
  [[ "$(id -u)" == 0 ]] && id -u postgres >/dev/null 2>&1 || return 0
  runuser -u postgres -- test -x "${DIR}" 2>/dev/null && return 0
  CLUSTER="/var/lib/postgresql/wallet-api-$(printf '%s' "${REPO_ROOT}" | cksum | cut -d' ' -f1)"
  SERVER_LOG="${CLUSTER}.log"
}

# Where no policy-rc.d forbids it (a plain Debian machine, unlike most containers), installing the
# package creates and starts a system cluster on our port that wants a password over TCP. This
# script installed it just now, so it stops that cluster and keeps it from starting at boot (it stays
# installed: `pg_ctlcluster <version> main start` brings it back) and runs the project's own instead.
stop_packaged_cluster() {
  command -v pg_lsclusters >/dev/null 2>&1 || return 0
  local version name port
  while read -r version name port _; do
    [[ "${port}" == "${PORT}" ]] || continue
    log "stopping the cluster ${version}/${name} that installing the package started on port ${PORT}"
    pg_ctlcluster "${version}" "${name}" stop >/dev/null 2>&1 || true
    if [[ -w "/etc/postgresql/${version}/${name}/start.conf" ]]; then
      echo manual >"/etc/postgresql/${version}/${name}/start.conf"
    fi
  done < <(pg_lsclusters --no-header 2>/dev/null | awk '$4 == "online"')
}

init_cluster() {
  local bin="$1"
  [[ -s "${CLUSTER}/PG_VERSION" ]] && return 0
  log "creating a cluster in ${CLUSTER#"${REPO_ROOT}/"}"
  rm -rf "${CLUSTER}"
  mkdir -p "${CLUSTER}"
  if [[ "$(id -u)" == 0 ]]; then chown postgres: "${CLUSTER}"; fi
  chmod 700 "${CLUSTER}"
  as_server_user "${bin}/initdb" -D "${CLUSTER}" -U "${USER_NAME}" --auth=trust -E UTF8 --locale=C >"${DIR}/initdb.log" 2>&1 ||
    fail_with_log "initdb failed" "${DIR}/initdb.log"
  # Loopback only, socket inside the cluster (no /run/postgresql needed). synchronous_commit=off:
  # a machine crash may lose this development cluster's last few hundred ms of commits, never
  # corrupt it, and the test suite commits a lot. max_connections: every service and test keeps pools.
  printf '%s\n' '' '# Written by scripts/infra/postgres.sh' \
    "listen_addresses = '${HOST}'" "port = ${PORT}" "unix_socket_directories = '${CLUSTER}'" \
    'max_connections = 300' 'shared_buffers = 256MB' 'synchronous_commit = off' \
    >>"${CLUSTER}/postgresql.conf"
}

start_cluster() {
  local bin
  if ! bin="$(server_bin_dir)"; then
    apt_install_packages postgresql
    bin="$(server_bin_dir)" || die "the postgresql package installed no server under /usr/lib/postgresql"
    place_cluster # the package has just created the `postgres` user
    stop_packaged_cluster
  fi
  command -v psql >/dev/null 2>&1 || apt_install psql postgresql-client
  if port_open "${HOST}" "${PORT}"; then
    die "the server on ${HOST}:${PORT} does not let user ${USER_NAME} in without a password.
  psql said: $(sql 'select 1' 2>&1 | head -n 3 || true)
  If it is the system PostgreSQL, stop it (e.g. 'pg_ctlcluster 15 main stop') so that this script
  starts its own, or let ${USER_NAME} in from ${HOST} with 'trust' in its pg_hba.conf."
  fi
  init_cluster "${bin}"
  touch "${SERVER_LOG}"
  if [[ "$(id -u)" == 0 ]]; then chown postgres: "${SERVER_LOG}"; fi
  log "starting PostgreSQL $("${bin}/postgres" --version | awk '{print $3}') (data in ${CLUSTER#"${REPO_ROOT}/"})"
  # pg_ctl starts the server in a session of its own, so Ctrl-C in this terminal does not reach it.
  # 9>&- : the server must not inherit the component lock.
  as_server_user "${bin}/pg_ctl" -D "${CLUSTER}" -l "${SERVER_LOG}" -w -t "${READY_TIMEOUT}" start >/dev/null 2>&1 9>&- ||
    fail_with_log "PostgreSQL did not start" "${SERVER_LOG}"
}

wait_ready() {
  local deadline=$((SECONDS + READY_TIMEOUT))
  until ready; do
    ((SECONDS < deadline)) ||
      fail_with_log "PostgreSQL does not answer on ${HOST}:${PORT} as user ${USER_NAME} after ${READY_TIMEOUT}s" "${SERVER_LOG}"
    sleep 0.2
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
  place_cluster
  if ready; then
    if ours; then log "already running (ours, data in ${CLUSTER#"${REPO_ROOT}/"})"; else log "already running on ${HOST}:${PORT} (not started by us; left alone)"; fi
  elif ours; then
    log "our server is still starting; waiting for it"
  else
    start_cluster
  fi
  wait_ready
  local name
  for name in "${DATABASES[@]}"; do
    create_database "${name}"
    migrate "${name}"
  done
}

cmd_down() {
  place_cluster
  if ! ours; then
    if ready; then log "not started by us; left running"; else log "not running"; fi
    return 0
  fi
  lock_component "${DIR}"
  local bin
  bin="$(server_bin_dir)" || die "our cluster is running but no PostgreSQL binaries are installed to stop it"
  # fast: roll back open transactions and stop now, rather than wait for idle pools to hang up.
  as_server_user "${bin}/pg_ctl" -D "${CLUSTER}" -m fast -w -t 60 stop >/dev/null ||
    fail_with_log "pg_ctl stop failed" "${SERVER_LOG}"
  log "stopped"
}

cmd_status() {
  if ! ready; then
    status_line postgres down "${HOST}:${PORT} does not answer"
    return
  fi
  local name details="${HOST}:${PORT}" state=up summary applied total
  place_cluster
  if ours; then details+=" (ours, ${CLUSTER#"${REPO_ROOT}/"})"; else details+=" (external)"; fi
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
