#!/usr/bin/env bash
# One line per component; exits non-zero when any of them is down.
#   bash scripts/status.sh
set -uo pipefail
COMPONENT=status
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
INFRA="${REPO_ROOT}/scripts/infra"

rc=0
bash "${INFRA}/redis.sh" status || rc=1
if [[ -f "${INFRA}/postgres.sh" ]]; then
  bash "${INFRA}/postgres.sh" status || rc=1
else
  status_line postgres n/a "scripts/infra/postgres.sh does not exist yet"
fi
bash "${INFRA}/clickhouse.sh" status || rc=1
bash "${INFRA}/kafka.sh" status || rc=1
bash "${INFRA}/anvil.sh" status || rc=1
bash "${INFRA}/solana.sh" status || rc=1
exit "${rc}"
