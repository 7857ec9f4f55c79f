{{/*
Chart name, truncated to a DNS label.
*/}}
{{- define "wallet-api.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Fully qualified release name. Kept to 48 characters so that "<fullname>-<service>"
(the longest service, reference-data, adds 15) stays a valid 63-character name.
*/}}
{{- define "wallet-api.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 48 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 48 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 48 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Name of one service's objects. Call with (dict "root" $ "name" "gateway").
*/}}
{{- define "wallet-api.componentName" -}}
{{- printf "%s-%s" (include "wallet-api.fullname" .root) .name | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "wallet-api.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Selector labels: stable for the life of a release (never add version labels here).
*/}}
{{- define "wallet-api.selectorLabels" -}}
app.kubernetes.io/name: {{ include "wallet-api.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
Common labels.
*/}}
{{- define "wallet-api.labels" -}}
helm.sh/chart: {{ include "wallet-api.chart" . }}
{{ include "wallet-api.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: wallet-api
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/*
Labels of one component (a service or a hook Job). Call with (dict "root" $ "component" "gateway").
*/}}
{{- define "wallet-api.componentLabels" -}}
{{ include "wallet-api.labels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "wallet-api.componentSelectorLabels" -}}
{{ include "wallet-api.selectorLabels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{/*
Container image reference.
*/}}
{{- define "wallet-api.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion | toString) }}
{{- end }}
{{- end }}

{{/*
CHAIN_RPC_URL_<ID> for a chain id: upper-cased, dashes as underscores (as reference-data reads it).
*/}}
{{- define "wallet-api.chainRpcUrlVariable" -}}
{{- printf "CHAIN_RPC_URL_%s" (. | upper | replace "-" "_") }}
{{- end }}

{{/*
Secret names. The chart's own Secret holds whatever is not taken from an existing Secret;
"-hooks" is a copy of DATABASE_URL that exists while the pre-install/pre-upgrade hooks run
(hooks run before the release's ordinary objects are created or updated).
*/}}
{{- define "wallet-api.secretName" -}}
{{- include "wallet-api.fullname" . }}
{{- end }}

{{- define "wallet-api.hookSecretName" -}}
{{- printf "%s-hooks" (include "wallet-api.fullname" .) }}
{{- end }}

{{/*
Whether the chart renders its Secret ("true" or empty).
*/}}
{{- define "wallet-api.createSecret" -}}
{{- $rpc := false }}
{{- range $id, $url := .Values.chainRpcUrls }}
{{- if $url }}{{ $rpc = true }}{{ end }}
{{- end }}
{{- if or (not .Values.postgresql.existingSecret) (not .Values.clickhouse.existingSecret) (not .Values.redis.existingSecret) $rpc }}true{{ end }}
{{- end }}

{{/*
DATABASE_URL env entry. Call with (dict "root" $ "hook" true|false).
*/}}
{{- define "wallet-api.databaseUrlEnv" -}}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      {{- if .root.Values.postgresql.existingSecret }}
      name: {{ .root.Values.postgresql.existingSecret }}
      key: {{ .root.Values.postgresql.existingSecretKey }}
      {{- else if .hook }}
      name: {{ include "wallet-api.hookSecretName" .root }}
      key: DATABASE_URL
      {{- else }}
      name: {{ include "wallet-api.secretName" .root }}
      key: DATABASE_URL
      {{- end }}
{{- end }}

{{/*
Environment shared by every service.
*/}}
{{- define "wallet-api.commonEnv" -}}
- name: NODE_ENV
  value: production
- name: LOG_LEVEL
  value: {{ .Values.logLevel | quote }}
- name: KAFKA_BROKERS
  value: {{ join "," .Values.kafka.brokers | quote }}
- name: CLICKHOUSE_URL
  value: {{ .Values.clickhouse.url | quote }}
- name: CLICKHOUSE_DATABASE
  value: {{ .Values.clickhouse.database | quote }}
- name: CLICKHOUSE_USER
  value: {{ .Values.clickhouse.user | quote }}
- name: CLICKHOUSE_PASSWORD
  valueFrom:
    secretKeyRef:
      {{- if .Values.clickhouse.existingSecret }}
      name: {{ .Values.clickhouse.existingSecret }}
      key: {{ .Values.clickhouse.existingSecretKey }}
      {{- else }}
      name: {{ include "wallet-api.secretName" . }}
      key: CLICKHOUSE_PASSWORD
      {{- end }}
{{ include "wallet-api.databaseUrlEnv" (dict "root" . "hook" false) }}
{{- with .Values.otel.endpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ . | quote }}
{{- end }}
- name: OTEL_NODE_RESOURCE_DETECTORS
  value: env,host,os,process
- name: SHUTDOWN_TIMEOUT_MS
  value: {{ .Values.shutdownTimeoutMs | int | quote }}
{{- end }}

{{/*
PUBLIC_URL of the gateway.
*/}}
{{- define "wallet-api.publicUrl" -}}
{{- $gateway := .Values.services.gateway }}
{{- if $gateway.publicUrl }}
{{- $gateway.publicUrl }}
{{- else if and .Values.ingress.enabled .Values.ingress.host }}
{{- printf "%s://%s" (ternary "https" "http" (.Values.ingress.tls.enabled | default false)) .Values.ingress.host }}
{{- else }}
{{- $port := $gateway.service.port | int }}
{{- printf "http://%s.%s.svc%s" (include "wallet-api.componentName" (dict "root" . "name" "gateway")) .Release.Namespace (ternary "" (printf ":%d" $port) (eq $port 80)) }}
{{- end }}
{{- end }}

{{/*
REFERENCE_DATA_GRPC_ADDRESS for the gateway: host:port of the reference-data Service.
*/}}
{{- define "wallet-api.referenceDataAddress" -}}
{{- $referenceData := index .Values.services "reference-data" }}
{{- if .Values.services.gateway.referenceDataAddress }}
{{- .Values.services.gateway.referenceDataAddress }}
{{- else }}
{{- printf "%s.%s.svc:%d" (include "wallet-api.componentName" (dict "root" . "name" "reference-data")) .Release.Namespace ($referenceData.port | int) }}
{{- end }}
{{- end }}

{{/*
INDEXER_GRPC_ADDRESS for the gateway: host:port of the indexer Service.
*/}}
{{- define "wallet-api.indexerAddress" -}}
{{- if .Values.services.gateway.indexerAddress }}
{{- .Values.services.gateway.indexerAddress }}
{{- else }}
{{- printf "%s.%s.svc:%d" (include "wallet-api.componentName" (dict "root" . "name" "indexer")) .Release.Namespace (.Values.services.indexer.port | int) }}
{{- end }}
{{- end }}

{{/*
POSITIONS_GRPC_ADDRESS for the gateway: host:port of the positions Service.
*/}}
{{- define "wallet-api.positionsAddress" -}}
{{- if .Values.services.gateway.positionsAddress }}
{{- .Values.services.gateway.positionsAddress }}
{{- else }}
{{- printf "%s.%s.svc:%d" (include "wallet-api.componentName" (dict "root" . "name" "positions")) .Release.Namespace (.Values.services.positions.port | int) }}
{{- end }}
{{- end }}

{{/*
CHART_GRPC_ADDRESS for the gateway: host:port of the chart Service.
*/}}
{{- define "wallet-api.chartAddress" -}}
{{- if .Values.services.gateway.chartAddress }}
{{- .Values.services.gateway.chartAddress }}
{{- else }}
{{- printf "%s.%s.svc:%d" (include "wallet-api.componentName" (dict "root" . "name" "chart")) .Release.Namespace (.Values.services.chart.port | int) }}
{{- end }}
{{- end }}

{{/*
PNL_GRPC_ADDRESS for the gateway: host:port of the pnl Service.
*/}}
{{- define "wallet-api.pnlAddress" -}}
{{- if .Values.services.gateway.pnlAddress }}
{{- .Values.services.gateway.pnlAddress }}
{{- else }}
{{- printf "%s.%s.svc:%d" (include "wallet-api.componentName" (dict "root" . "name" "pnl")) .Release.Namespace (.Values.services.pnl.port | int) }}
{{- end }}
{{- end }}

{{/*
NFT_GRPC_ADDRESS for the gateway: host:port of the nft Service.
*/}}
{{- define "wallet-api.nftAddress" -}}
{{- if .Values.services.gateway.nftAddress }}
{{- .Values.services.gateway.nftAddress }}
{{- else }}
{{- printf "%s.%s.svc:%d" (include "wallet-api.componentName" (dict "root" . "name" "nft")) .Release.Namespace (.Values.services.nft.port | int) }}
{{- end }}
{{- end }}

{{/*
SUBSCRIPTION_GRPC_ADDRESS for the gateway: host:port of the subscription Service.
*/}}
{{- define "wallet-api.subscriptionAddress" -}}
{{- if .Values.services.gateway.subscriptionAddress }}
{{- .Values.services.gateway.subscriptionAddress }}
{{- else }}
{{- printf "%s.%s.svc:%d" (include "wallet-api.componentName" (dict "root" . "name" "subscription")) .Release.Namespace (.Values.services.subscription.port | int) }}
{{- end }}
{{- end }}

{{/*
Pod spec of a hook Job. Call with (dict "root" $ "name" "migrate" "job" .Values.migrations "env" "<yaml list>").
*/}}
{{- define "wallet-api.hookPodSpec" -}}
{{- $root := .root -}}
restartPolicy: Never
{{- with $root.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $root.Values.serviceAccountName }}
serviceAccountName: {{ . }}
{{- end }}
automountServiceAccountToken: false
enableServiceLinks: false
securityContext:
  {{- toYaml $root.Values.podSecurityContext | nindent 2 }}
{{- with $root.Values.priorityClassName }}
priorityClassName: {{ . }}
{{- end }}
{{- with $root.Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $root.Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $root.Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
containers:
  - name: {{ .name }}
    image: {{ include "wallet-api.image" $root }}
    imagePullPolicy: {{ $root.Values.image.pullPolicy }}
    {{- with $root.Values.image.workingDir }}
    workingDir: {{ . }}
    {{- end }}
    command:
      {{- toYaml .job.command | nindent 6 }}
    env:
      - name: NODE_ENV
        value: production
      - name: LOG_LEVEL
        value: {{ $root.Values.logLevel | quote }}
      # Tools that write caches under $HOME get the writable /tmp.
      - name: HOME
        value: /tmp
      {{- .env | nindent 6 }}
      {{- range $key, $value := .job.env }}
      - name: {{ $key }}
        value: {{ $value | toString | quote }}
      {{- end }}
    resources:
      {{- toYaml .job.resources | nindent 6 }}
    securityContext:
      {{- toYaml $root.Values.securityContext | nindent 6 }}
    volumeMounts:
      - name: tmp
        mountPath: /tmp
volumes:
  - name: tmp
    emptyDir:
      sizeLimit: {{ $root.Values.tmpVolume.sizeLimit }}
{{- end }}

{{/*
Checks on values that would otherwise only fail at runtime.
*/}}
{{- define "wallet-api.validateValues" -}}
{{- $levels := list "fatal" "error" "warn" "info" "debug" "trace" "silent" }}
{{- if not (has .Values.logLevel $levels) }}
{{- fail (printf "logLevel must be one of %s, got %q" (join ", " $levels) (toString .Values.logLevel)) }}
{{- end }}
{{- if not .Values.postgresql.existingSecret }}
{{- $url := required "postgresql.url is required (postgresql://USER:PASSWORD@HOST:5432/DATABASE), or set postgresql.existingSecret" .Values.postgresql.url }}
{{- if not (hasPrefix "postgresql://" $url) }}
{{- fail "postgresql.url must start with postgresql:// (the services reject postgres://)" }}
{{- end }}
{{- end }}
{{- if not .Values.kafka.brokers }}
{{- fail "kafka.brokers must list at least one broker" }}
{{- end }}
{{- if and .Values.services.subscription.enabled (not .Values.webhooks.existingSecret) }}
{{- fail "webhooks.existingSecret is required while services.subscription is enabled (a Secret with secret-key, signing-key.pem and certificate.pem)" }}
{{- end }}
{{- if and (index .Values.services "reference-data").enabled (not .Values.chains) }}
{{- fail "chains must list at least one chain" }}
{{- end }}
{{- $graceMs := mul (.Values.terminationGracePeriodSeconds | int) 1000 }}
{{- $neededMs := add (.Values.shutdownTimeoutMs | int) (mul (.Values.preStopDelaySeconds | int) 1000) }}
{{- if lt $graceMs $neededMs }}
{{- fail (printf "terminationGracePeriodSeconds (%d s) must cover preStopDelaySeconds + shutdownTimeoutMs (%d ms)" (.Values.terminationGracePeriodSeconds | int) $neededMs) }}
{{- end }}
{{- end }}
