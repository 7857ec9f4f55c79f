#!/usr/bin/env bash
# Redis on 127.0.0.1:6379. Most machines already run one (the system service); we start our own
# only when nothing answers there, and `down` stops only a Redis that this script started.
set -euo pipefail
COMPONENT=redis
# shellcheck source=../lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

HOST=127.0.0.1
PORT=6379
DIR="$(component_dir redis)"
PIDFILE="${DIR}/redis.pid"
LOGFILE="${DIR}/redis.log"
READY_TIMEOUT="${REDIS_READY_TIMEOUT:-20}"

ping_ok() { [[ "$(redis-cli -h "${HOST}" -p "${PORT}" ping 2>/dev/null)" == PONG ]]; }
ours() { pid_alive "${PIDFILE}" redis-server; }

cmd_up() {
  apt_install redis-cli redis-tools
  if ping_ok; then
    if ours; then log "already running (started by us, pid $(cat "${PIDFILE}"))"; else log "already running on ${HOST}:${PORT} (not started by us; left alone)"; fi
    return 0
  fi
  apt_install redis-server redis-server
  lock_component "${DIR}"
  # The system package's postinst may have just started one.
  if ping_ok; then
    log "running on ${HOST}:${PORT} (system service)"
    return 0
  fi
  mkdir -p "${DIR}"
  : >"${LOGFILE}"
  # No persistence: Redis here only holds caches and rate-limit counters that can be rebuilt.
  redis-server --daemonize yes --bind "${HOST}" --port "${PORT}" --save "" --appendonly no \
    --dir "${DIR}" --pidfile "${PIDFILE}" --logfile "${LOGFILE}" 9>&- ||
    fail_with_log "redis-server failed to start" "${LOGFILE}"
  wait_for "PING on ${HOST}:${PORT}" "${READY_TIMEOUT}" "${LOGFILE}" "" ping_ok
  log "started on ${HOST}:${PORT} (pid $(cat "${PIDFILE}" 2>/dev/null || echo '?'))"
}

cmd_down() {
  if ours; then
    lock_component "${DIR}"
    redis-cli -h "${HOST}" -p "${PORT}" shutdown nosave >/dev/null 2>&1 || true
    stop_pid "${PIDFILE}" redis-server 10 || true
    log "stopped"
  else
    rm -f "${PIDFILE}"
    if ping_ok; then log "not started by us; left running"; else log "not running"; fi
  fi
}

cmd_status() {
  if ping_ok; then
    if ours; then status_line redis up "${HOST}:${PORT} pid $(cat "${PIDFILE}")"; else status_line redis up "${HOST}:${PORT} (external)"; fi
  else
    status_line redis down "${HOST}:${PORT} does not answer PING"
  fi
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  *) usage_component ;;
esac
