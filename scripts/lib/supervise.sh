#!/usr/bin/env bash
# usage: supervise.sh <name> <log file> <command> [args...]
# Runs a service as Kubernetes runs a container: when it exits it is started again, after a
# back-off that doubles from 1 s to 30 s (back to 1 s once a run lasted a minute), each exit
# written to the log with its status. TERM or INT stops the service (TERM, then its own shutdown)
# and the supervisor with it. The start command runs one per service, so one service that dies
# leaves the others serving.
set -uo pipefail
name=$1 logfile=$2
shift 2
backoff=1
max_backoff=${SUPERVISE_MAX_BACKOFF_S:-30}
child=
stopping=false

stop() {
  stopping=true
  [[ -n "${child}" ]] && kill -TERM "${child}" 2>/dev/null
}
trap stop TERM INT

while true; do
  started=${SECONDS}
  "$@" >>"${logfile}" 2>&1 &
  child=$!
  # wait returns early when a trapped signal arrives: wait again until the service has gone.
  while kill -0 "${child}" 2>/dev/null; do wait "${child}"; done
  wait "${child}" 2>/dev/null
  code=$?
  ${stopping} && exit 0
  ((SECONDS - started >= 60)) && backoff=1
  printf '{"level":50,"time":%s,"service":"%s","name":"supervisor","status":%s,"restartInSeconds":%s,"msg":"service exited; restarting"}\n' \
    "$(date +%s%3N)" "${name}" "${code}" "${backoff}" >>"${logfile}"
  sleep "${backoff}" &
  wait $! || true
  ${stopping} && exit 0
  backoff=$((backoff * 2 > max_backoff ? max_backoff : backoff * 2))
done
