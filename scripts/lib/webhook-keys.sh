#!/usr/bin/env bash
# Key material of a local deployment's webhooks, made once under .data/webhook (never committed):
#   secret-key       AES-256 key (base64) that encrypts stored signing secrets (SUBSCRIPTION_SECRET_KEY)
#   signing-key.pem  RSA key of the X-Signature header (WEBHOOK_SIGNING_KEY_FILE)
#   certificate.pem  its self-signed certificate, served by the gateway (WEBHOOK_CERTIFICATE_FILE)
# Production brings its own through the Helm chart's secrets.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/common.sh
COMPONENT=webhook-keys

dir="${DATA_DIR}/webhook"
mkdir -p "${dir}"
chmod 700 "${dir}"
if [[ ! -s "${dir}/secret-key" ]]; then
  openssl rand -base64 32 >"${dir}/secret-key.tmp" && mv "${dir}/secret-key.tmp" "${dir}/secret-key"
fi
if [[ ! -s "${dir}/signing-key.pem" || ! -s "${dir}/certificate.pem" ]]; then
  log "creating the webhook signing key and its self-signed certificate"
  openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=wallet-api webhooks" \
    -keyout "${dir}/signing-key.pem" -out "${dir}/certificate.pem" 2>/dev/null || die "openssl could not create the webhook key"
fi
chmod 600 "${dir}"/*
