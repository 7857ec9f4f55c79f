#!/usr/bin/env bash
# The README's start command: installs what is missing, brings up the infrastructure and every
# service, and serves the API on http://127.0.0.1:8080 until Ctrl-C, which stops what it started.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/common.sh
COMPONENT=start

services=(reference-data indexer positions pnl chart nft subscription gateway)
logs="${DATA_DIR}/logs"
key_file="${DATA_DIR}/demo-api-key"
gateway_url="http://127.0.0.1:${HTTP_PORT:-8080}"

# One start command at a time. A second one started while the first still stops would find the
# infrastructure up, keep it, and have it stopped under it by the first one's down.sh: it waits for
# that one to exit instead (a minute at most; a start command still serving after that is an error).
pid_file="${DATA_DIR}/start.pid"
previous="$(cat "${pid_file}" 2>/dev/null || true)"
is_start_command() { [[ -n "$1" ]] && tr '\0' ' ' 2>/dev/null <"/proc/$1/cmdline" | grep -q 'scripts/start.sh'; }
if is_start_command "${previous}"; then
  log "waiting for the start command still running (pid ${previous}) to exit"
  for _ in $(seq 1 60); do is_start_command "${previous}" || break; sleep 1; done
  is_start_command "${previous}" && die "another start command (pid ${previous}) is serving; stop it first (Ctrl-C or kill ${previous})"
fi
mkdir -p "${DATA_DIR}"
echo $$ >"${pid_file}"

bash scripts/setup.sh
infra_was_up=false
bash scripts/status.sh >/dev/null 2>&1 && infra_was_up=true
bash scripts/up.sh
# A world that ends today, so recent chart windows have history; built once a day, then cached.
log "loading the devnet world (${DEVNET_WALLETS:-50} wallets)"
node devnet/dist/cli/main.js world --seed demo --wallets "${DEVNET_WALLETS:-50}" --end-date "$(date -u +%F)"
bash scripts/infra/anvil.sh restart
bash scripts/infra/solana.sh restart
# The chains restart from the world's saved state, so the blocks live activity mined on them in an
# earlier session are gone (and a different world starts over at block 0): what the services
# derived from them (checkpoints, balances, ClickHouse history, the Kafka log) must go too, or the
# indexer would wait at a checkpoint above the new head.
log "clearing what the services derived from earlier chain sessions"
bash scripts/reset-chain-data.sh
# A crowd of extra ethereum wallets for bench:mix (DEVNET_CROWD=10000): funded now, in a few blocks
# the indexer reads on start like any others. The previous start's list names wallets the restarted
# chain no longer has, so it goes either way.
rm -f "${DATA_DIR}/devnet/crowd.json"
if ((${DEVNET_CROWD:-0} > 0)); then
  log "funding a crowd of ${DEVNET_CROWD} more wallets on ethereum"
  node devnet/dist/cli/main.js crowd --wallets "${DEVNET_CROWD}"
fi

pids=()
# Each service's log size when it was started: where the start reads its exits from.
log_offsets=()
stopping=false
stop_all() {
  trap - INT TERM EXIT
  stopping=true
  log "stopping services"
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [[ "${infra_was_up}" == false ]]; then
    log "stopping the infrastructure this command started"
    bash scripts/down.sh || true
  fi
}
trap stop_all INT TERM EXIT

mkdir -p "${logs}"
bash scripts/lib/webhook-keys.sh
webhook_dir="${DATA_DIR}/webhook"
# Pay per request on the devnet's ethereum chain: its USDC (EIP-3009) from the world's manifest, paid
# to anvil's second dev account and settled by its first (both funded at genesis; their keys are
# anvil's public well-known ones, for the devnet only).
x402_env=()
devnet_usdc=$(node -e '
  const manifest = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const chain = manifest.chains.find((c) => c.id === "ethereum");
  const usdc = chain?.protocols?.tokens?.tokens.find((t) => t.symbol === "USDC" && t.kind === "stable");
  if (usdc) console.log(usdc.address);
' "${DATA_DIR}/devnet/manifest.json" 2>/dev/null || true)
[[ -n "${devnet_usdc}" ]] && x402_env=(
  X402_PAY_TO="${X402_PAY_TO:-0x70997970C51812dc3A010C7d01b50e0d17dc79C8}"
  X402_USDC_ADDRESS="${devnet_usdc}"
  X402_FACILITATOR_PRIVATE_KEY="${X402_FACILITATOR_PRIVATE_KEY:-0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80}"
)
# And on the devnet's solana-devnet chain: its USDC mint, paid to the world's first wallet (which
# has a USDC token account), co-signed and its fees paid by the world's funder, whose key is the
# world seed's (devnet only: anyone who knows the seed knows it), as a solana-keygen byte array.
mapfile -t devnet_svm < <(node -e '
  const manifest = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const world = (manifest.solana ?? []).find((w) => w.id === "solana-devnet");
  const usdc = world?.mints.find((m) => m.key === "usdc");
  if (!usdc || !world.wallets[0]) process.exit(0);
  const key = require("crypto").createHash("sha256").update(`${world.seed}/solana/funder`).digest();
  console.log(usdc.address); console.log(world.wallets[0].address); console.log(JSON.stringify([...key]));
' "${DATA_DIR}/devnet/manifest.json" 2>/dev/null || true)
[[ -n "${devnet_usdc}" && ${#devnet_svm[@]} -eq 3 ]] && x402_env+=(
  X402_SVM_USDC_MINT="${devnet_svm[0]}"
  X402_SVM_PAY_TO="${X402_SVM_PAY_TO:-${devnet_svm[1]}}"
  X402_SVM_FACILITATOR_PRIVATE_KEY="${X402_SVM_FACILITATOR_PRIVATE_KEY:-${devnet_svm[2]}}"
)
for service in "${services[@]}"; do
  # reference-data attributes contracts and verifies tokens of the loaded world from its registry.
  service_env=()
  [[ "${service}" == reference-data ]] && service_env=(REGISTRY_PATHS="${DATA_DIR}/devnet/registry.json")
  # Loopback callbacks are allow-listed so a receiver on this machine works out of the box; production allows none.
  [[ "${service}" == subscription ]] && service_env=(
    SUBSCRIPTION_SECRET_KEY="$(cat "${webhook_dir}/secret-key")"
    WEBHOOK_SIGNING_KEY_FILE="${webhook_dir}/signing-key.pem"
    CALLBACK_ALLOW_LIST="${CALLBACK_ALLOW_LIST:-loopback}"
  )
  [[ "${service}" == gateway ]] && service_env=(WEBHOOK_CERTIFICATE_FILE="${webhook_dir}/certificate.pem" "${x402_env[@]}")
  # The devnet's NFT metadata server is on loopback; production fetches public addresses only.
  [[ "${service}" == nft ]] && service_env=(NFT_METADATA_ALLOW_LIST="${NFT_METADATA_ALLOW_LIST:-loopback}")
  # Each under a supervisor, as Kubernetes would run it: a service that dies is started again
  # (its exit logged), and the others keep serving.
  log_offsets+=("$(stat -c %s "${logs}/${service}.log" 2>/dev/null || echo 0)")
  bash scripts/lib/supervise.sh "${service}" "${logs}/${service}.log" env NODE_ENV=production "${service_env[@]}" node "services/${service}/dist/main.js" &
  pids+=($!)
done

log_offsets+=("$(stat -c %s "${logs}/devnet-live.log" 2>/dev/null || echo 0)")
bash scripts/lib/supervise.sh devnet-live "${logs}/devnet-live.log" \
  node devnet/dist/cli/main.js live --interval-ms "${DEVNET_BLOCK_MS:-1000}" --actions "${DEVNET_ACTIONS:-4}" &
pids+=($!)
services+=(devnet-live)

create_demo_key() {
  local output
  output=$(node services/gateway/dist/cli/main.js keys create --org demo) || die "could not create the demo API key"
  tail -n 1 <<<"${output}" >"${key_file}"
  chmod 600 "${key_file}"
}
[[ -s "${key_file}" ]] || create_demo_key

chains_status() {
  curl -s -o /dev/null -w '%{http_code}' -u "$(cat "${key_file}"):" "${gateway_url}/v1/chains/" || true
}
deadline=$((SECONDS + 60))
until [[ "$(chains_status)" == 200 ]]; do
  # A service that keeps dying before the API answers (a configuration error) fails the start
  # then, rather than being restarted until the deadline: its supervisor's lines are in its log.
  # One exit is not enough: the default gRPC ports lie in Linux's ephemeral range, and a port
  # briefly held by an outgoing connection (EADDRINUSE) is gone by the restart a second later.
  for index in "${!pids[@]}"; do
    exits="$(tail -c "+$((log_offsets[index] + 1))" "${logs}/${services[$index]}.log" 2>/dev/null | grep -c '"name":"supervisor"' || true)"
    ((exits < 3)) || fail_with_log "${services[$index]} exited ${exits} times" "${logs}/${services[$index]}.log"
  done
  if [[ "$(chains_status)" == 401 ]]; then
    log "the saved demo key is unknown to this database; creating a new one"
    create_demo_key
  fi
  ((SECONDS < deadline)) || fail_with_log "the API did not answer within 60 s" "${logs}/gateway.log|${logs}/reference-data.log"
  sleep 0.5
done

cat <<EOT

  The wallet API is serving on ${gateway_url}
  Demo API key: ${key_file}

    curl -u "\$(cat .data/demo-api-key):" ${gateway_url}/v1/chains/
    curl -u "\$(cat .data/demo-api-key):" -H 'X-Env: testnet' ${gateway_url}/v1/chains/
    curl ${gateway_url}/v1/openapi.json

  Chains (anvil, with the devnet world and live activity): ethereum http://127.0.0.1:18545,
  base http://127.0.0.1:18546, sepolia http://127.0.0.1:18547; Solana (LiteSVM, a block every
  second): solana http://127.0.0.1:18899, solana-devnet http://127.0.0.1:18900;
  world manifest: .data/devnet/manifest.json

  Service logs: .data/logs/<service>.log. Press Ctrl-C to stop.

EOT
wait -n "${pids[@]}" || true
if [[ "${stopping}" == false ]]; then
  log "a service's supervisor exited unexpectedly; see ${logs}"
  exit 1
fi
