#!/usr/bin/env bash
# The project's own ClickHouse: HTTP 127.0.0.1:18123, native 127.0.0.1:19000, everything under
# .data/clickhouse. `up` also creates the databases and applies infra/clickhouse/migrations.
#   clickhouse.sh up|down|status|migrate
set -euo pipefail
COMPONENT=clickhouse
# shellcheck source=../lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

HOST=127.0.0.1
HTTP_PORT=18123
TCP_PORT=19000
DATABASES=(wallet_api wallet_api_test)
DIR="$(component_dir clickhouse)"
PIDFILE="${DIR}/clickhouse.pid"
LOGFILE="${DIR}/logs/clickhouse-server.log"
CONFIG_SRC="${REPO_ROOT}/infra/clickhouse"
MIGRATIONS_DIR="${CONFIG_SRC}/migrations"
READY_TIMEOUT="${CLICKHOUSE_READY_TIMEOUT:-60}"

ping_ok() { [[ "$(curl -sf --max-time 2 "http://${HOST}:${HTTP_PORT}/ping" 2>/dev/null)" == Ok.* ]]; }
# The config path in the command line tells our server from any other ClickHouse (another work tree's).
ours() { pid_alive "${PIDFILE}" "--config-file=${DIR}/config.xml"; }
ch() { clickhouse-client --host "${HOST}" --port "${TCP_PORT}" "$@"; }

ensure_installed() {
  apt_install curl curl
  apt_install clickhouse-server clickhouse-server
  apt_install clickhouse-client clickhouse-client
}

render_config() {
  mkdir -p "${DIR}/data" "${DIR}/tmp" "${DIR}/logs" "${DIR}/user_files" "${DIR}/format_schemas"
  # '|' as the sed delimiter: the replacement is a path full of '/'.
  sed "s|@CH_DIR@|${DIR}|g" "${CONFIG_SRC}/config.xml" >"${DIR}/config.xml.tmp"
  mv "${DIR}/config.xml.tmp" "${DIR}/config.xml"
  cp "${CONFIG_SRC}/users.xml" "${DIR}/users.xml"
}

start_server() {
  if ours && ping_ok; then
    log "already running (pid $(cat "${PIDFILE}"), http ${HOST}:${HTTP_PORT})"
    return 0
  fi
  if ping_ok; then
    die "something not started by this script already answers on ${HOST}:${HTTP_PORT}; stop it or free the port"
  fi
  if ours; then
    # Alive but not answering: a previous start that is still booting. Wait for it below.
    log "process $(cat "${PIDFILE}") exists but does not answer yet; waiting for it"
  else
    for port in "${HTTP_PORT}" "${TCP_PORT}"; do
      if port_open "${HOST}" "${port}"; then
        die "port ${HOST}:${port} is taken by another process; cannot start ClickHouse"
      fi
    done
    render_config
    log "starting (data in ${DIR})"
    # cd: ClickHouse 18.16 resolves a few relative paths (and writes its core dumps) against the
    # working directory.
    (cd "${DIR}" && start_background "${PIDFILE}" "${LOGFILE}" clickhouse-server --config-file="${DIR}/config.xml")
  fi
  wait_for "http://${HOST}:${HTTP_PORT}/ping" "${READY_TIMEOUT}" "${LOGFILE}" "${PIDFILE}" ping_ok
  log "ready on http ${HOST}:${HTTP_PORT}, native ${HOST}:${TCP_PORT} (pid $(cat "${PIDFILE}"))"
}

sql_quote() { printf "'%s'" "${1//\'/\\\'}"; }

# Each file in infra/clickhouse/migrations is applied once per database, in file-name order, and
# recorded with its checksum. ClickHouse has no DDL transactions, so a migration that fails halfway
# is not recorded and runs again next time: write every statement so that a re-run is harmless
# (IF NOT EXISTS, ADD COLUMN IF NOT EXISTS, ...).
migrate() {
  local files=() seen=" "
  shopt -s nullglob
  files=("${MIGRATIONS_DIR}"/*.sql)
  shopt -u nullglob
  local file base
  for file in "${files[@]}"; do
    base="$(basename "${file}" .sql)"
    [[ "${base}" =~ ^([0-9]{4})_([a-z0-9_]+)$ ]] ||
      die "migration file name ${file} does not match NNNN_name.sql (lower-case name, digits and _)"
    [[ "${seen}" != *" ${BASH_REMATCH[1]} "* ]] || die "two migration files share version ${BASH_REMATCH[1]} in ${MIGRATIONS_DIR}"
    seen+="${BASH_REMATCH[1]} "
  done

  local db
  for db in "${DATABASES[@]}"; do
    ch --query "CREATE DATABASE IF NOT EXISTS ${db}" || die "cannot create database ${db}"
    ch --database "${db}" --query "CREATE TABLE IF NOT EXISTS schema_migrations
      (version String, name String, checksum String, applied_at DateTime)
      ENGINE = MergeTree ORDER BY version" || die "cannot create ${db}.schema_migrations"
    local applied=0 version name checksum recorded
    for file in "${files[@]}"; do
      base="$(basename "${file}" .sql)"
      version="${base%%_*}"
      name="${base#*_}"
      checksum="$(sha256sum "${file}" | cut -d' ' -f1)"
      recorded="$(ch --database "${db}" --query \
        "SELECT checksum FROM schema_migrations WHERE version = $(sql_quote "${version}") LIMIT 1")" ||
        die "cannot read ${db}.schema_migrations"
      if [[ -n "${recorded}" ]]; then
        [[ "${recorded}" == "${checksum}" ]] || die "migration ${base}.sql was changed after it was applied to ${db}
  recorded checksum: ${recorded}
  file checksum:     ${checksum}
  Applied migrations must not be edited: restore the file and add a new NNNN_*.sql instead
  (or, on a throw-away dev database, drop ${db} and run up again)."
        continue
      fi
      log "applying ${base}.sql to ${db}"
      ch --database "${db}" --multiquery <"${file}" || die "migration ${base}.sql failed on ${db} (nothing recorded; fix the file and run up again)"
      ch --database "${db}" --query "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES ($(sql_quote "${version}"), $(sql_quote "${name}"), $(sql_quote "${checksum}"), now())" ||
        die "migration ${base}.sql ran on ${db} but could not be recorded"
      applied=$((applied + 1))
    done
    if ((applied == 0)); then log "${db}: schema up to date (${#files[@]} migrations)"; else log "${db}: applied ${applied} migration(s)"; fi
  done
}

cmd_up() {
  ensure_installed
  lock_component "${DIR}"
  start_server
  migrate
}

cmd_migrate() {
  ping_ok || die "not running on ${HOST}:${HTTP_PORT}; run scripts/infra/clickhouse.sh up"
  lock_component "${DIR}"
  migrate
}

cmd_down() {
  lock_component "${DIR}"
  if stop_pid "${PIDFILE}" "--config-file=${DIR}/config.xml" 60; then log "stopped"; else log "not running (nothing started by us)"; fi
}

cmd_status() {
  if ours && ping_ok; then
    status_line clickhouse up "http ${HOST}:${HTTP_PORT} native ${HOST}:${TCP_PORT} pid $(cat "${PIDFILE}")"
  elif ping_ok; then
    status_line clickhouse up "http ${HOST}:${HTTP_PORT} (not started by scripts/infra/clickhouse.sh)"
  elif ours; then
    status_line clickhouse down "pid $(cat "${PIDFILE}") alive but /ping does not answer; see ${LOGFILE}"
  else
    status_line clickhouse down "not running"
  fi
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  migrate) cmd_migrate ;;
  *) echo "usage: $0 up|down|status|migrate" >&2; exit 2 ;;
esac
