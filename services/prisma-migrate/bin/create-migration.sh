#!/usr/bin/env bash
# Creates a migration in services/core/prisma/migrations from the difference between the existing
# migrations (replayed in a throwaway shadow database) and schema.prisma, then applies it to
# DATABASE_URL. This stands in for `prisma migrate dev`, which fails under Prisma 6.19's Wasm
# schema engine ("null pointer passed to rust", "shadow DB must be provided through an external
# factory"): the engine gets one shadow database per run and `migrate dev` needs several.
#
#   create-migration.sh <name>    create and apply, e.g. create-migration.sh add_webhooks
#   create-migration.sh --check   print the pending SQL; exit 2 when schema.prisma has changes
#                                 that no migration covers, 0 when it has none
set -euo pipefail
cd "$(dirname "$0")/.."
prisma=node_modules/.bin/prisma
migrations=../core/prisma/migrations
# prisma.config.ts writes this Prisma 6 copy of schema.prisma every time the CLI loads it.
schema=node_modules/.cache/prisma-migrate/schema.prisma

usage() {
  echo "usage: create-migration.sh <name, lower_snake_case> | --check" >&2
  exit 2
}

schema_diff() {
  "$prisma" migrate diff --from-migrations "$migrations" --to-schema-datamodel "$schema" \
    --script --exit-code "$@"
}

[ $# -eq 1 ] || usage
if [ "$1" = --check ]; then
  schema_diff
  exit 0
fi
[[ $1 =~ ^[a-z0-9_]+$ ]] || usage

sql=$(mktemp)
trap 'rm -f "$sql"' EXIT
status=0
schema_diff --output "$sql" || status=$?
case $status in
  0) echo "create-migration: schema.prisma matches the migrations; nothing to create"; exit 0 ;;
  2) ;;
  *) exit "$status" ;;
esac

dir="$migrations/$(date -u +%Y%m%d%H%M%S)_$1"
mkdir -p "$dir"
mv "$sql" "$dir/migration.sql"
echo "create-migration: wrote services/core/prisma/migrations/$(basename "$dir")/migration.sql"
"$prisma" migrate deploy
