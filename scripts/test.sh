#!/usr/bin/env bash
# The README's test command: installs and builds what is missing, checks generated code, types, format and lint,
# brings up the real infrastructure, and runs every test suite against it.
#   bash scripts/test.sh [jest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/common.sh
COMPONENT=test

bash scripts/setup.sh
bash scripts/codegen-proto.sh --check
bash scripts/codegen-prisma.sh --check
# The committed TypeScript client must match the routes the gateway declares.
bash scripts/codegen-client.sh --check
log "type-checking sources and tests"
node_modules/.bin/tsc -p tsconfig.json --noEmit || die "type errors (see above)"
log "formatting and lint (Biome, biome.jsonc)"
node_modules/.bin/biome ci --reporter=summary . || die "Biome findings (see above; 'node_modules/.bin/biome check --write .' fixes the formatting)"
log "helm for the chart tests (built from its Go module once, then taken from .data/tools)"
bash scripts/lib/helm.sh >/dev/null
bash scripts/up.sh
log "loading the devnet test world (built once, then taken from .data/devnet/cache)"
node devnet/dist/cli/main.js world --seed test --wallets 20
bash scripts/infra/anvil.sh restart
bash scripts/infra/solana.sh restart

results="${DATA_DIR}/test-results.json"
faults="${DATA_DIR}/test-results-faults.json"
rm -f "${results}" "${faults}"
log "running jest"
set +e
# --forceExit: the results alone decide the exit status. Without it the process lingers until every
# handle a test left behind closes, and whatever such a handle does after the summary counts too: a
# CI run printed 1,377 passed and 0 failed, then exited 1 with nothing printed after the counts.
#
# One worker, not --runInBand: suites still run one at a time, but in a child process that jest
# replaces whenever it holds more than 1 GB between suites. In band, what each suite's module
# registry leaves behind accumulates in jest's own process: a CI run died of heap exhaustion at
# 3.6 GB after 2,437 s, about 40 minutes into the suites.
jest() {
  NODE_OPTIONS=--experimental-vm-modules LOG_LEVEL="${LOG_LEVEL:-warn}" node_modules/.bin/jest --maxWorkers=1 --workerIdleMemoryLimit=1GB --forceExit --json "$@"
}
jest --outputFile="${results}" "$@"
status=$?
# The fault suites (*.faults.test.ts) stop Redis, PostgreSQL, ClickHouse and Kafka themselves, so
# they run after every other suite, on their own; with the whole test command only (no arguments).
if [[ $# -eq 0 ]]; then
  log "running the fault suites"
  jest --outputFile="${faults}" --testPathIgnorePatterns=/node_modules/ --testMatch='**/*.faults.test.ts' || status=1
fi
set -e
# Print the counts as one plain line that CI reads, whatever jest printed before it.
if [[ -s "${results}" ]]; then
  node -e '
    const runs = process.argv.slice(1).filter((file) => require("fs").existsSync(file)).map((file) => require(file));
    const total = (field) => runs.reduce((sum, run) => sum + run[field], 0);
    // Where the minutes go: the fifteen slowest suites, for whoever makes the suite faster.
    const suites = runs.flatMap((r) => r.testResults).map((suite) => ({ seconds: (suite.endTime - suite.startTime) / 1000, name: require("path").relative(process.cwd(), suite.name) }));
    suites.sort((a, b) => b.seconds - a.seconds);
    console.log(`slowest suites (of ${suites.length}, ${Math.round(suites.reduce((sum, suite) => sum + suite.seconds, 0))} s in all):`);
    for (const suite of suites.slice(0, 15)) console.log(`${suite.seconds.toFixed(1).padStart(8)} s  ${suite.name}`);
    // A suite that fails to load runs no test, so it would not show in the test counts.
    const unloaded = total("numRuntimeErrorTestSuites") ? `, ${total("numRuntimeErrorTestSuites")} suites failed to run` : "";
    console.log(`${total("numPassedTests")} passed, ${total("numFailedTests")} failed` + (total("numPendingTests") ? `, ${total("numPendingTests")} skipped` : "") + unloaded);
    if (runs.some((run) => run.numTotalTests === 0)) process.exitCode = 1;
  ' "${results}" "${faults}" || status=1
fi
exit ${status}
