#!/usr/bin/env bash
# A real Apache Kafka broker (KRaft, single node) run from the jars that infra/kafka/pom.xml
# resolves: PLAINTEXT 127.0.0.1:19092, controller 127.0.0.1:19093, everything under .data/kafka.
# Topics are not created here (the project's code does that from its declared list).
set -euo pipefail
COMPONENT=kafka
# shellcheck source=../lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

HOST=127.0.0.1
PORT=19092
CONTROLLER_PORT=19093
DIR="$(component_dir kafka)"
LIBS="${DIR}/libs"
DATA="${DIR}/data"
LOGS="${DIR}/logs"
PROPS="${DIR}/server.properties"
PIDFILE="${DIR}/kafka.pid"
OUTFILE="${LOGS}/kafka.out"
SERVER_LOG="${LOGS}/server.log"
POM="${REPO_ROOT}/infra/kafka/pom.xml"
KAFKAJS_DIR="${REPO_ROOT}/services/core/node_modules/kafkajs"
READY_TIMEOUT="${KAFKA_READY_TIMEOUT:-120}"
# Marker looked for in the process's command line; the properties path keeps two work trees'
# brokers apart.
MARKER="kafka.Kafka ${PROPS}"

JAVA_OPTS=(
  -Xmx512m -Xms128m
  -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:+ExplicitGCInvokesConcurrent
  -Djava.awt.headless=true
  "-Dkafka.logs.dir=${LOGS}"
  "-Dlog4j2.configurationFile=${REPO_ROOT}/infra/kafka/log4j2.xml"
)

ours() { pid_alive "${PIDFILE}" "${MARKER}"; }

ensure_java() {
  apt_install java default-jre-headless
  apt_install mvn maven
  local major
  major="$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')"
  [[ "${major%%.*}" -ge 17 ]] 2>/dev/null || die "Kafka 4 needs Java 17 or newer; 'java' is ${major:-unknown}"
}

# The jars are resolved again only when the pom changes: resolving takes a few seconds even with a
# warm ~/.m2, and the whole broker (about 45 jars, 43 MB) must come from one consistent resolve.
ensure_libs() {
  local want have=""
  want="$(sha256sum "${POM}" | cut -d' ' -f1)"
  [[ -f "${LIBS}/.pom.sha256" ]] && have="$(cat "${LIBS}/.pom.sha256")"
  if [[ "${want}" == "${have}" ]] && compgen -G "${LIBS}/kafka_2.13-*.jar" >/dev/null; then
    return 0
  fi
  log "resolving broker jars from ${POM#"${REPO_ROOT}/"} (pom changed or first run)"
  local tmp="${DIR}/libs.tmp"
  rm -rf "${tmp}"
  mkdir -p "${tmp}"
  mvn -q -B -Dstyle.color=never -f "${POM}" dependency:copy-dependencies \
    "-DoutputDirectory=${tmp}" -DincludeScope=runtime >"${DIR}/mvn.log" 2>&1 ||
    fail_with_log "mvn could not resolve the Kafka jars (is Maven Central reachable?)" "${DIR}/mvn.log"
  compgen -G "${tmp}/kafka_2.13-*.jar" >/dev/null || die "mvn ran but no kafka_2.13 jar was copied into ${tmp}"
  echo "${want}" >"${tmp}/.pom.sha256"
  rm -rf "${LIBS}"
  mv "${tmp}" "${LIBS}"
  log "$(find "${LIBS}" -name '*.jar' | wc -l) jars in ${LIBS}"
}

render_props() {
  mkdir -p "${DATA}" "${LOGS}"
  sed "s|@KAFKA_DATA@|${DATA}|g" "${REPO_ROOT}/infra/kafka/server.properties" >"${PROPS}.tmp"
  mv "${PROPS}.tmp" "${PROPS}"
}

# Kafka cluster ids are 16 random bytes in URL-safe base64 without padding. Like Kafka's own
# Uuid.randomUuid, avoid a leading '-', which command-line parsers take for an option.
new_cluster_id() {
  local id
  while true; do
    id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"
    [[ "${id}" != -* ]] && { echo "${id}"; return; }
  done
}

format_storage_once() {
  [[ -f "${DATA}/meta.properties" ]] && return 0
  local id
  id="$(new_cluster_id)"
  log "formatting storage in ${DATA} (cluster id ${id})"
  (cd "${DIR}" && java "${JAVA_OPTS[@]}" -cp "${LIBS}/*" kafka.tools.StorageTool format -t "${id}" -c "${PROPS}") \
    >>"${OUTFILE}" 2>&1 || fail_with_log "formatting the storage failed" "${OUTFILE}|${SERVER_LOG}"
}

# The broker is ready when it answers a metadata request on the client port, not merely when
# the port accepts connections (the socket opens before the broker has caught up with the
# metadata log). kafkajs is the client the services use, so the probe also proves they can talk.
probe_metadata() {
  node -e '
    const { Kafka, logLevel } = require(process.argv[1]);
    const admin = new Kafka({ brokers: [process.argv[2]], logLevel: logLevel.NOTHING,
      connectionTimeout: 1000, requestTimeout: 2000, retry: { retries: 0 } }).admin();
    admin.connect()
      .then(() => admin.describeCluster())
      .then((c) => { if (!c.brokers.length) throw new Error("no brokers"); return admin.disconnect(); })
      .then(() => process.exit(0), () => process.exit(1));
    setTimeout(() => process.exit(1), 4000).unref();
  ' "${KAFKAJS_DIR}" "${HOST}:${PORT}"
}

# Byte offset of server.log when this start began, so that the fallback below does not find the
# "started" line of an earlier run.
LOG_OFFSET=0
ready() {
  port_open "${HOST}" "${PORT}" || return 1
  if [[ -d "${KAFKAJS_DIR}" ]] && command -v node >/dev/null 2>&1; then
    probe_metadata
  else
    # Without kafkajs installed (pnpm install not run yet) fall back to the broker's own word.
    # Process substitution, not a pipe: with pipefail, grep -q quitting early makes tail die of
    # SIGPIPE on a large log and the whole test fail.
    grep -q 'Kafka Server started' < <(tail -c +"$((LOG_OFFSET + 1))" "${SERVER_LOG}" 2>/dev/null)
  fi
}

cmd_up() {
  ensure_java
  lock_component "${DIR}"
  if ours; then
    if ready; then
      log "already running (pid $(cat "${PIDFILE}"), ${HOST}:${PORT})"
      return 0
    fi
    log "process $(cat "${PIDFILE}") exists but is not ready yet; waiting for it"
  else
    for port in "${PORT}" "${CONTROLLER_PORT}"; do
      port_open "${HOST}" "${port}" && die "port ${HOST}:${port} is taken by a process not started by this script; stop it first"
    done
    ensure_libs
    render_props
    format_storage_once
    log "starting (data in ${DATA})"
    LOG_OFFSET="$(stat -c %s "${SERVER_LOG}" 2>/dev/null || echo 0)"
    # A marker line so that a failure's log tail shows only this start's output.
    echo "===== start $(date -u +%FT%TZ) =====" >>"${OUTFILE}"
    (cd "${DIR}" && start_background "${PIDFILE}" "${OUTFILE}" java "${JAVA_OPTS[@]}" -cp "${LIBS}/*" kafka.Kafka "${PROPS}")
  fi
  wait_for "a metadata answer on ${HOST}:${PORT}" "${READY_TIMEOUT}" "${SERVER_LOG}|${OUTFILE}" "${PIDFILE}" ready
  log "ready on ${HOST}:${PORT} (pid $(cat "${PIDFILE}"))"
}

cmd_down() {
  lock_component "${DIR}"
  if stop_pid "${PIDFILE}" "${MARKER}" 60; then log "stopped"; else log "not running (nothing started by us)"; fi
}

cmd_status() {
  if ours && port_open "${HOST}" "${PORT}"; then
    status_line kafka up "${HOST}:${PORT} pid $(cat "${PIDFILE}")"
  elif ours; then
    status_line kafka down "pid $(cat "${PIDFILE}") alive but ${HOST}:${PORT} closed; see ${SERVER_LOG}"
  elif port_open "${HOST}" "${PORT}"; then
    status_line kafka up "${HOST}:${PORT} (not started by scripts/infra/kafka.sh)"
  else
    status_line kafka down "not running"
  fi
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  *) usage_component ;;
esac
