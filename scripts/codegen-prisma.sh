#!/usr/bin/env bash
# Generates the Prisma 7 client for services/core from services/core/prisma/schema.prisma into
# services/core/src/db/generated (git-ignored, so run this after a clone and after schema edits).
# Prisma 7's CLI fetches a native schema engine before any command, which fails offline; `generate`
# never uses it, so PRISMA_SCHEMA_ENGINE_BINARY points at a stand-in that fails loudly if anything
# ever does call it (a stand-in that succeeds would let `db push` "work" doing nothing).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
core="$root/services/core"
prisma="$core/node_modules/.bin/prisma"
[ -x "$prisma" ] || { echo "codegen-prisma: prisma CLI missing in services/core; run pnpm install" >&2; exit 1; }

engine_stub=$(mktemp)
trap 'rm -f "$engine_stub"' EXIT
printf '#!/bin/sh\necho "codegen-prisma: the native schema engine is not available offline" >&2\nexit 1\n' >"$engine_stub"
chmod +x "$engine_stub"

cd "$core"
CHECKPOINT_DISABLE=1 PRISMA_SCHEMA_ENGINE_BINARY="$engine_stub" \
  "$prisma" generate --schema prisma/schema.prisma
