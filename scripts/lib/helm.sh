#!/usr/bin/env bash
# Builds helm from its Go module at the pinned version into .data/tools (no npm or Debian package
# ships the binary; the Go module proxy is reachable where nothing else is) and prints its path.
#   helm="$(bash scripts/lib/helm.sh)"
# The first build downloads the modules and compiles for a few minutes; afterwards it only checks
# the version recorded in the binary.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/common.sh
COMPONENT=helm

# Bump deliberately: the chart test runs `helm lint --strict`, whose checks change between versions.
HELM_VERSION=v3.22.0
tools="${DATA_DIR}/tools"
helm="${tools}/helm"

# `go install` does not run helm's Makefile, which passes the version and the Kubernetes version
# through -ldflags. Without them `helm version` prints "v3.22" and lint and template assume
# Kubernetes 1.20, which the chart's kubeVersion (>=1.24) refuses. So the same flags are set here,
# the Kubernetes version derived from helm's k8s.io/client-go as the Makefile does (v0.N -> 1.N).
installed_version() {
  "${helm}" version --template '{{.Version}}' 2>/dev/null || true
}
ldflags() {
  local gomod client_go minor
  gomod="$(go mod download -json "helm.sh/helm/v3@${HELM_VERSION}" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')"
  [[ -s "${gomod}" ]] || die "could not download helm.sh/helm/v3@${HELM_VERSION}'s go.mod (GOPROXY=$(go env GOPROXY))"
  client_go="$(awk '$1 == "k8s.io/client-go" { print $2 }' "${gomod}")"
  [[ "${client_go}" =~ ^v0\.([0-9]+)\. ]] || die "no k8s.io/client-go v0.N in ${gomod}"
  minor="${BASH_REMATCH[1]}"
  local flags="-s -w -X helm.sh/helm/v3/internal/version.version=${HELM_VERSION}"
  local pkg
  for pkg in helm.sh/helm/v3/pkg/lint/rules helm.sh/helm/v3/pkg/chartutil; do
    flags+=" -X ${pkg}.k8sVersionMajor=1 -X ${pkg}.k8sVersionMinor=${minor}"
  done
  echo "${flags}"
}

if [[ -x "${helm}" && "$(installed_version)" == "${HELM_VERSION}" ]]; then
  echo "${helm}"
  exit 0
fi
# Go's own tarball installs under /usr/local/go, which non-login shells often leave off PATH.
if ! command -v go >/dev/null && [[ -x /usr/local/go/bin/go ]]; then
  PATH="/usr/local/go/bin:${PATH}"
fi
command -v go >/dev/null || die "go is not installed: helm is built from its Go module (go install helm.sh/helm/v3/cmd/helm@${HELM_VERSION})"

# A jest run and scripts/test.sh may ask at once; one builds, the other waits and reuses it.
mkdir -p "${tools}"
exec 8>"${tools}/.helm.lock"
flock -w 900 8 || die "timed out waiting for another build of helm (${tools}/.helm.lock)"
if [[ ! -x "${helm}" || "$(installed_version)" != "${HELM_VERSION}" ]]; then
  log "building helm ${HELM_VERSION} with go install (first time: a few minutes)"
  GOBIN="${tools}" CGO_ENABLED=0 go install -ldflags "$(ldflags)" "helm.sh/helm/v3/cmd/helm@${HELM_VERSION}" >&2 ||
    die "go install helm.sh/helm/v3/cmd/helm@${HELM_VERSION} failed (is the Go module proxy reachable? GOPROXY=$(go env GOPROXY))"
  [[ "$(installed_version)" == "${HELM_VERSION}" ]] || die "${helm} does not report ${HELM_VERSION} after go install"
fi
echo "${helm}"
