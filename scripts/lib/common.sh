# Shared helpers for the infrastructure scripts. Source it; it does not run anything itself.
# shellcheck shell=bash

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DATA_DIR="${REPO_ROOT}/.data"
export REPO_ROOT DATA_DIR

# Each component script sets COMPONENT so every message says which service it is about.
COMPONENT="${COMPONENT:-infra}"

log() { printf '[%s] %s\n' "${COMPONENT}" "$*" >&2; }
warn() { printf '[%s] WARNING: %s\n' "${COMPONENT}" "$*" >&2; }
die() {
  printf '[%s] ERROR: %s\n' "${COMPONENT}" "$*" >&2
  exit 1
}

# Prints the end of a log file, so a failure message carries the reason and not only "timeout".
show_log_tail() {
  local file="$1" lines="${2:-30}"
  if [[ -s "${file}" ]]; then
    printf -- '----- last %s lines of %s -----\n' "${lines}" "${file}" >&2
    tail -n "${lines}" "${file}" >&2
    printf -- '----- end of %s -----\n' "${file}" >&2
  else
    printf '(log file %s is empty or missing)\n' "${file}" >&2
  fi
}

# fail_with_log <message> <logfile[|logfile...]>: several files separated by '|' (a server's own
# log plus the file that caught its stdout/stderr, where JVM and config errors land).
fail_with_log() {
  local message="$1" logfiles="$2" file
  local files=()
  IFS='|' read -ra files <<<"${logfiles}"
  printf '[%s] ERROR: %s\n' "${COMPONENT}" "${message}" >&2
  printf '[%s] read the log: %s\n' "${COMPONENT}" "${files[*]}" >&2
  for file in "${files[@]}"; do
    show_log_tail "${file}"
  done
  exit 1
}

# wait_for <what> <timeout seconds> <logfile> <pidfile or ""> <command...>
# Polls the command every 0.2 s. Stops early when the process behind the pid file has died,
# because waiting out the whole timeout for a crashed server only hides the crash.
wait_for() {
  local what="$1" timeout="$2" logfile="$3" pidfile="$4"
  shift 4
  local deadline=$((SECONDS + timeout))
  while true; do
    if "$@" >/dev/null 2>&1; then
      return 0
    fi
    if [[ -n "${pidfile}" ]] && ! pid_alive "${pidfile}"; then
      fail_with_log "${COMPONENT} exited while waiting for ${what}" "${logfile}"
    fi
    if ((SECONDS >= deadline)); then
      fail_with_log "${COMPONENT} not ready after ${timeout}s (waiting for ${what})" "${logfile}"
    fi
    sleep 0.2
  done
}

port_open() {
  local host="$1" port="$2"
  (exec 3<>"/dev/tcp/${host}/${port}") 2>/dev/null
}

# A process that has exited but not been reaped yet (a zombie) counts as gone: the servers are
# orphaned on purpose (see start_background), and on some machines PID 1 reaps orphans only every
# second or so, which made every stop wait for that.
proc_running() {
  local pid="$1" state
  kill -0 "${pid}" 2>/dev/null || return 1
  state="$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/${pid}/status" 2>/dev/null || true)"
  [[ -n "${state}" && "${state}" != Z ]]
}

# A pid file alone can lie after a reboot (the pid may belong to another program now), so the
# process's command line must also contain the expected marker.
pid_alive() {
  local pidfile="$1" marker="${2:-}"
  [[ -s "${pidfile}" ]] || return 1
  local pid
  pid="$(cat "${pidfile}")"
  [[ "${pid}" =~ ^[0-9]+$ ]] || return 1
  proc_running "${pid}" || return 1
  if [[ -n "${marker}" ]]; then
    grep -qF -- "${marker}" < <(tr '\0' ' ' <"/proc/${pid}/cmdline" 2>/dev/null) || return 1
  fi
  return 0
}

# start_background <pidfile> <logfile> <command...>
# setsid puts the server in its own session so that Ctrl-C in the terminal that ran `up` does not
# reach it, and so that it outlives the script. 9>&- : the server must not inherit the component
# lock (fd 9, see lock_component), or it would hold that lock for as long as it runs.
start_background() {
  local pidfile="$1" logfile="$2"
  shift 2
  mkdir -p "$(dirname "${pidfile}")" "$(dirname "${logfile}")"
  setsid "$@" >>"${logfile}" 2>&1 </dev/null 9>&- &
  echo $! >"${pidfile}"
}

# stop_pid <pidfile> <marker> <timeout seconds>
# TERM first so servers flush and close cleanly (Kafka writes a clean-shutdown marker that saves
# log recovery on the next start); KILL only when that does not finish in time.
stop_pid() {
  local pidfile="$1" marker="$2" timeout="${3:-30}"
  if ! pid_alive "${pidfile}" "${marker}"; then
    rm -f "${pidfile}"
    return 1
  fi
  local pid
  pid="$(cat "${pidfile}")"
  kill -TERM "${pid}" 2>/dev/null || true
  local deadline=$((SECONDS + timeout))
  while proc_running "${pid}"; do
    if ((SECONDS >= deadline)); then
      warn "pid ${pid} still alive after ${timeout}s, sending KILL"
      kill -KILL "${pid}" 2>/dev/null || true
      sleep 0.5
      break
    fi
    sleep 0.2
  done
  rm -f "${pidfile}"
  return 0
}

# apt_install <command-or-path> <package...>
# Installs only when the command is missing; `apt-get update` runs at most once per `up` run
# (the flag is exported so that the child scripts started by up.sh see it too).
apt_install() {
  local probe="$1"
  shift
  if command -v "${probe}" >/dev/null 2>&1 || [[ -x "${probe}" ]]; then
    return 0
  fi
  apt_install_packages "$@"
}

# apt_install_packages <package...>: installs the packages now (for servers found by path, not by a
# command on PATH). Needs root or sudo.
apt_install_packages() {
  command -v apt-get >/dev/null 2>&1 || die "apt-get is not available: install $* by hand"
  local sudo=()
  if [[ "$(id -u)" != 0 ]]; then
    command -v sudo >/dev/null 2>&1 || die "installing $* needs root or sudo"
    sudo=(sudo)
  fi
  # Package lists from the last hour are good enough: setup and up would otherwise each refresh them.
  if [[ "${INFRA_APT_UPDATED:-}" != 1 ]] &&
    [[ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages*' -mmin -60 2>/dev/null | head -n 1)" ]]; then
    log "apt-get update (once)"
    "${sudo[@]}" apt-get update -qq >&2 || die "apt-get update failed"
  fi
  export INFRA_APT_UPDATED=1
  log "installing $*"
  # A system-wide service that a package's postinst may start (where no policy-rc.d forbids it) is
  # detected by the component scripts: a Redis or PostgreSQL that lets us in is used as it is.
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2 ||
    die "apt-get install $* failed"
}

# lock_component <dir>: serialises `up`/`down` of one component, because several people (or a test
# runner and a person) may run scripts/up.sh in the same work tree at the same time. The lock is
# released when the script exits.
lock_component() {
  local dir="$1" timeout="${2:-300}"
  mkdir -p "${dir}"
  exec 9>"${dir}/.lock"
  if ! flock -n 9; then
    log "another up/down of ${COMPONENT} is running; waiting for it (up to ${timeout}s)"
    flock -w "${timeout}" 9 || die "timed out waiting for the lock ${dir}/.lock"
  fi
}

# Fixed file names per component under .data/<name>/.
component_dir() { echo "${DATA_DIR}/$1"; }

# One status line: "<name>: up|down <details>". Returns 0 when up.
status_line() {
  local name="$1" state="$2"
  shift 2
  printf '%-16s %-5s %s\n' "${name}" "${state}" "$*"
  [[ "${state}" == up ]]
}

usage_component() {
  echo "usage: $0 up|down|status" >&2
  exit 2
}

# The command line of a script that runs several local chains (anvil.sh, solana.sh):
#   <script> up|down|restart|status [chain...]
# The script defines up_chain, down_chain and status_chain (each taking a chain name), a
# `check_chain` that dies on an unknown name, and `prepare_chains` (what `up` needs installed);
# ALL_CHAINS and DIR are set. `restart` stops and starts each chain: a running chain cannot load
# another world in place.
run_chain_command() {
  local action="${1:-}" chain rc=0
  shift || true
  local chains=("$@")
  ((${#chains[@]})) || chains=("${ALL_CHAINS[@]}")
  for chain in "${chains[@]}"; do check_chain "${chain}"; done
  case "${action}" in
    up | restart)
      prepare_chains
      lock_component "${DIR}"
      for chain in "${chains[@]}"; do
        [[ "${action}" == restart ]] && down_chain "${chain}"
        up_chain "${chain}"
      done
      ;;
    down)
      lock_component "${DIR}"
      for chain in "${chains[@]}"; do down_chain "${chain}"; done
      ;;
    status)
      for chain in "${chains[@]}"; do status_chain "${chain}" || rc=1; done
      exit "${rc}"
      ;;
    *) echo "usage: $0 up|down|restart|status [${ALL_CHAINS[*]}]" >&2; exit 2 ;;
  esac
}
