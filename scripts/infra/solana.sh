#!/usr/bin/env bash
# Two local Solana chains (LiteSVM behind the devnet's JSON-RPC server, `devnet solana`):
#   solana         127.0.0.1:18899
#   solana-devnet  127.0.0.1:18900
# Each rebuilds its world from the `solana` section of .data/devnet/manifest.json when there is
# one (same seed, same blocks and blockhashes), else starts empty, then seals a block every
# second (SOLANA_SLOT_MS; mainnet's 400 ms would make every consumer of the block topics write 2.5
# block states a second per chain on an idle stack).
# Nothing is kept on disk: `down` only stops them.
#   solana.sh up|down|restart|status [chain...]
set -euo pipefail
COMPONENT=solana
# shellcheck source=../lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

HOST=127.0.0.1
DIR="$(component_dir solana)"
# A large world takes a while to rebuild before the server answers.
READY_TIMEOUT="${SOLANA_READY_TIMEOUT:-300}"
SLOT_MS="${SOLANA_SLOT_MS:-1000}"
ALL_CHAINS=(solana solana-devnet)
CLI="${REPO_ROOT}/devnet/dist/cli/main.js"

chain_port() {
  case "$1" in
    solana) echo 18899 ;;
    solana-devnet) echo 18900 ;;
    *) die "unknown chain '$1' (known: ${ALL_CHAINS[*]})" ;;
  esac
}

ensure_built() {
  [[ -f "${CLI}" ]] && return 0
  log "building the TypeScript code (for ${CLI#"${REPO_ROOT}/"})"
  bash "${REPO_ROOT}/scripts/build.sh" >&2 || die "scripts/build.sh failed"
  [[ -f "${CLI}" ]] || die "${CLI#"${REPO_ROOT}/"} is still missing after the build"
}

rpc_health() {
  curl -sf --max-time 2 -H 'content-type: application/json' \
    --data '{"jsonrpc":"2.0","id":1,"method":"getHealth"}' "http://${HOST}:$1" |
    sed -n 's/.*"result":"\([a-z]*\)".*/\1/p'
}
chain_ready() { [[ "$(rpc_health "$1")" == ok ]]; }

pidfile_of() { echo "${DIR}/$1.pid"; }
logfile_of() { echo "${DIR}/$1.log"; }
marker_of() { echo "solana --port $(chain_port "$1") --chain $1"; }
ours() { pid_alive "$(pidfile_of "$1")" "$(marker_of "$1")"; }

up_chain() {
  local chain="$1" port pidfile logfile
  port="$(chain_port "${chain}")"
  pidfile="$(pidfile_of "${chain}")"
  logfile="$(logfile_of "${chain}")"
  if ours "${chain}"; then
    if chain_ready "${port}"; then
      log "${chain}: already running (pid $(cat "${pidfile}"), ${HOST}:${port})"
      return 0
    fi
    log "${chain}: process $(cat "${pidfile}") exists but does not answer yet; waiting for it"
  else
    if port_open "${HOST}" "${port}"; then
      die "${chain}: port ${HOST}:${port} is taken by a process not started by this script"
    fi
    mkdir -p "${DIR}"
    : >"${logfile}"
    start_background "${pidfile}" "${logfile}" env LOG_LEVEL="${LOG_LEVEL:-info}" node "${CLI}" \
      solana --port "${port}" --chain "${chain}" --slot-ms "${SLOT_MS}"
  fi
  COMPONENT="solana-${chain}" wait_for "getHealth = ok on ${HOST}:${port}" "${READY_TIMEOUT}" "${logfile}" "${pidfile}" \
    chain_ready "${port}"
  log "${chain}: ready on http://${HOST}:${port} (pid $(cat "${pidfile}"))"
}

down_chain() {
  local chain="$1" port
  port="$(chain_port "${chain}")"
  if stop_pid "$(pidfile_of "${chain}")" "$(marker_of "${chain}")" 10; then
    local deadline=$((SECONDS + 10))
    while port_open "${HOST}" "${port}" && ((SECONDS < deadline)); do sleep 0.1; done
    log "${chain}: stopped"
  else
    log "${chain}: not running (nothing started by us)"
  fi
}

status_chain() {
  local chain="$1" port
  port="$(chain_port "${chain}")"
  if chain_ready "${port}"; then
    if ours "${chain}"; then
      status_line "${chain}" up "http://${HOST}:${port} pid $(cat "$(pidfile_of "${chain}")")"
    else
      status_line "${chain}" up "http://${HOST}:${port} (not started by scripts/infra/solana.sh)"
    fi
  elif port_open "${HOST}" "${port}"; then
    status_line "${chain}" down "${HOST}:${port} open but getHealth is not ok"
  else
    status_line "${chain}" down "not running"
  fi
}

check_chain() { chain_port "${1}" >/dev/null; }
prepare_chains() {
  apt_install curl curl
  ensure_built
}

run_chain_command "$@"
