#!/usr/bin/env bash
# Three local EVM chains (anvil 1.7.1 from the root devDependency @foundry-rs/anvil):
#   ethereum  chain id 1         127.0.0.1:18545
#   base      chain id 8453      127.0.0.1:18546
#   sepolia   chain id 11155111  127.0.0.1:18547
# Chains start empty on every `up`; `down` deletes their on-disk state.
#   anvil.sh up|down|status [chain...]
set -euo pipefail
COMPONENT=anvil
# shellcheck source=../lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

HOST=127.0.0.1
DIR="$(component_dir anvil)"
READY_TIMEOUT="${ANVIL_READY_TIMEOUT:-30}"
ALL_CHAINS=(ethereum base sepolia)

chain_id() {
  case "$1" in
    ethereum) echo 1 ;;
    base) echo 8453 ;;
    sepolia) echo 11155111 ;;
    *) die "unknown chain '$1' (known: ${ALL_CHAINS[*]})" ;;
  esac
}
chain_port() {
  case "$1" in
    ethereum) echo 18545 ;;
    base) echo 18546 ;;
    sepolia) echo 18547 ;;
    *) die "unknown chain '$1' (known: ${ALL_CHAINS[*]})" ;;
  esac
}

# pnpm keeps the platform package inside node_modules/.pnpm, not hoisted to the root, so it is
# found through the wrapper package's own dependency resolution.
anvil_binary() {
  local arch
  case "$(uname -m)" in
    x86_64 | amd64) arch=amd64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) die "no anvil build for $(uname -m)" ;;
  esac
  local pkg="@foundry-rs/anvil-linux-${arch}"
  local wrapper="${REPO_ROOT}/node_modules/@foundry-rs/anvil"
  local found
  found="$(ls "${REPO_ROOT}"/node_modules/.pnpm/@foundry-rs+anvil-linux-${arch}@*/node_modules/${pkg}/bin/anvil 2>/dev/null | tail -n 1 || true)"
  if [[ -z "${found}" && -d "${wrapper}" ]]; then
    found="$(cd "${wrapper}" && node -e "console.log(require('path').join(require('path').dirname(require.resolve('${pkg}/package.json', { paths: [require('fs').realpathSync('.')] })), 'bin', 'anvil'))" 2>/dev/null || true)"
  fi
  [[ -n "${found}" && -f "${found}" ]] || return 1
  # Packed tarballs sometimes lose the executable bit.
  [[ -x "${found}" ]] || chmod +x "${found}"
  echo "${found}"
}

ensure_binary() {
  if ANVIL_BIN="$(anvil_binary)"; then return 0; fi
  log "anvil binary not found under node_modules; running pnpm install (root devDependency @foundry-rs/anvil)"
  command -v pnpm >/dev/null 2>&1 || die "pnpm is not installed; install it (npm i -g pnpm) and run pnpm install"
  # manage-package-manager-versions=false: if package.json ever pins a pnpm version again, pnpm 12
  # tries to fetch that pnpm for every platform and fails on the ones the registry lacks.
  (cd "${REPO_ROOT}" && pnpm install --frozen-lockfile --config.manage-package-manager-versions=false >&2) ||
    die "pnpm install failed; run it by hand at ${REPO_ROOT}"
  ANVIL_BIN="$(anvil_binary)" || die "anvil binary still missing after pnpm install (is @foundry-rs/anvil in the root package.json?)"
}

rpc_chain_id() {
  curl -sf --max-time 2 -H 'content-type: application/json' \
    --data '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' "http://${HOST}:$1" |
    sed -n 's/.*"result":"\(0x[0-9a-fA-F]*\)".*/\1/p'
}
chain_ready() {
  local got
  got="$(rpc_chain_id "$1")" || return 1
  [[ -n "${got}" ]] && (( got == $2 ))
}

pidfile_of() { echo "${DIR}/$1.pid"; }
logfile_of() { echo "${DIR}/$1.log"; }
marker_of() { echo "--cache-path ${DIR}/$1"; }
ours() { pid_alive "$(pidfile_of "$1")" "$(marker_of "$1")"; }

up_chain() {
  local chain="$1" id port pidfile logfile
  id="$(chain_id "${chain}")"
  port="$(chain_port "${chain}")"
  pidfile="$(pidfile_of "${chain}")"
  logfile="$(logfile_of "${chain}")"
  if ours "${chain}"; then
    if chain_ready "${port}" "${id}"; then
      log "${chain}: already running (pid $(cat "${pidfile}"), ${HOST}:${port}, chain id ${id})"
      return 0
    fi
    log "${chain}: process $(cat "${pidfile}") exists but does not answer yet; waiting for it"
  else
    if port_open "${HOST}" "${port}"; then
      die "${chain}: port ${HOST}:${port} is taken by a process not started by this script"
    fi
    # A chain that was not stopped by `down` (crash, reboot) left its state behind; it starts
    # empty anyway, so the stale files are only wasted disk.
    rm -rf "${DIR:?}/${chain}"
    mkdir -p "${DIR}/${chain}"
    : >"${logfile}"
    # --cache-path: anvil otherwise writes historical states under ~/.foundry/anvil/tmp and never
    # deletes them (hundreds of MB per few thousand blocks).
    # The devnet world (devnet, `world` command) leaves each chain's state here; without
    # one the chain starts empty. The high gas limit lets a block take every queued transaction.
    local world_state="${DATA_DIR}/devnet/world/${chain}.state.json" load=()
    if [[ -e "${world_state}" ]]; then
      load=(--load-state "$(readlink -f "${world_state}")")
      log "${chain}: loading the devnet world from ${world_state}"
    fi
    start_background "${pidfile}" "${logfile}" "${ANVIL_BIN}" \
      --host "${HOST}" --port "${port}" --chain-id "${id}" \
      --cache-path "${DIR}/${chain}" --gas-limit 1000000000 "${load[@]}"
  fi
  COMPONENT="anvil-${chain}" wait_for "eth_chainId = ${id} on ${HOST}:${port}" "${READY_TIMEOUT}" "${logfile}" "${pidfile}" \
    chain_ready "${port}" "${id}"
  log "${chain}: ready on http://${HOST}:${port} (chain id ${id}, pid $(cat "${pidfile}"))"
}

down_chain() {
  local chain="$1" port
  port="$(chain_port "${chain}")"
  if stop_pid "$(pidfile_of "${chain}")" "$(marker_of "${chain}")" 10; then
    # The process can be gone (a zombie awaiting its reaper) a moment before its socket is closed;
    # a restart must not find the port still taken.
    local deadline=$((SECONDS + 10))
    while port_open "${HOST}" "${port}" && ((SECONDS < deadline)); do sleep 0.1; done
    log "${chain}: stopped"
  else
    log "${chain}: not running (nothing started by us)"
  fi
  rm -rf "${DIR:?}/${chain}"
}

status_chain() {
  local chain="$1" id port
  id="$(chain_id "${chain}")"
  port="$(chain_port "${chain}")"
  if chain_ready "${port}" "${id}"; then
    if ours "${chain}"; then
      status_line "anvil-${chain}" up "http://${HOST}:${port} chain id ${id} pid $(cat "$(pidfile_of "${chain}")")"
    else
      status_line "anvil-${chain}" up "http://${HOST}:${port} chain id ${id} (not started by scripts/infra/anvil.sh)"
    fi
  elif port_open "${HOST}" "${port}"; then
    status_line "anvil-${chain}" down "${HOST}:${port} open but eth_chainId is not ${id}"
  else
    status_line "anvil-${chain}" down "not running"
  fi
}

check_chain() { chain_id "${1}" >/dev/null; }
prepare_chains() {
  apt_install curl curl
  ensure_binary
}

run_chain_command "$@"
