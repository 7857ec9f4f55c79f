#!/usr/bin/env bash
# Compiles every workspace package (services, clients and the devnet) to dist/, the shared core first.
set -euo pipefail
cd "$(dirname "$0")/.."
tsc=node_modules/.bin/tsc
$tsc -p services/core/tsconfig.json
pids=()
for dir in services/*/ clients/*/ devnet/; do
  name=$(basename "$dir")
  case "$name" in core|prisma-migrate) continue ;; esac
  [ -f "$dir/tsconfig.json" ] || continue
  $tsc -p "$dir/tsconfig.json" & pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit $status
