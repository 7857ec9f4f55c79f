#!/usr/bin/env bash
# Generates the Prisma 7 client for services/core from services/core/prisma/schema.prisma into
# services/core/src/generated/prisma. The output is committed, like every generated source here;
# `--check` generates into a temporary folder and fails when the committed client differs, so CI
# catches a schema edit without a regenerated client.
# Prisma 7's CLI fetches a native schema engine before any command, which fails offline; `generate`
# never uses it, so PRISMA_SCHEMA_ENGINE_BINARY points at a stand-in that fails loudly if anything
# ever does call it (a stand-in that succeeds would let `db push` "work" doing nothing).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
core="$root/services/core"
out="$core/src/generated/prisma"
prisma="$core/node_modules/.bin/prisma"
[ -x "$prisma" ] || { echo "codegen-prisma: prisma CLI missing in services/core; run pnpm install" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#!/bin/sh\necho "codegen-prisma: the native schema engine is not available offline" >&2\nexit 1\n' >"$tmp/engine"
chmod +x "$tmp/engine"

# generate SCHEMA: the client of that schema file, written where its generator block says.
generate() {
  (cd "$core" && CHECKPOINT_DISABLE=1 PRISMA_SCHEMA_ENGINE_BINARY="$tmp/engine" "$prisma" generate --schema "$1" >/dev/null)
}

if [ "${1:-}" = "--check" ]; then
  # The same schema in the same folder (the client embeds it, paths included), written elsewhere.
  schema="$core/prisma/.check-schema.prisma"
  trap 'rm -rf "$tmp" "$schema"' EXIT
  sed "s#\"../src/generated/prisma\"#\"$tmp/prisma\"#" "$core/prisma/schema.prisma" >"$schema"
  generate "$schema"
  # The client embeds its schema text, output path included: put the committed path back.
  grep -rl "$tmp/prisma" "$tmp/prisma" | xargs -r sed -i "s#$tmp/prisma#../src/generated/prisma#g"
  if ! diff -r "$tmp/prisma" "$out" >/dev/null; then
    echo "codegen-prisma: services/core/src/generated/prisma is stale; run 'bash scripts/codegen-prisma.sh' and commit" >&2
    diff -rq "$tmp/prisma" "$out" | head -20 >&2
    exit 1
  fi
  echo "codegen-prisma: generated client is up to date"
else
  rm -rf "$out"
  generate prisma/schema.prisma
  echo "codegen-prisma: wrote $out"
fi
