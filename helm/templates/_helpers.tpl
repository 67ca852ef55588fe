{{/* Names: <release>-k8s-health-bot unless the release name already contains the chart name. */}}
{{- define "khb.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "khb.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "khb.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "khb.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Selector labels of one component: call with (dict "ctx" $ "component" "serve"). */}}
{{- define "khb.selectorLabels" -}}
app.kubernetes.io/name: {{ include "khb.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{/*
  The ServiceAccount of one component (serve, worker, remediate): call with (dict "ctx" $ "component" "serve").
  One per component so that each gets only its own permissions (docs/security.md "The Helm chart").
*/}}
{{- define "khb.serviceAccountName" -}}
{{- $name := get .ctx.Values.serviceAccount.names .component }}
{{- if .ctx.Values.serviceAccount.create }}
{{- default (printf "%s-%s" (include "khb.fullname" .ctx) .component) $name }}
{{- else }}
{{- required (printf "serviceAccount.names.%s is required when serviceAccount.create is false" .component) $name }}
{{- end }}
{{- end }}

{{- define "khb.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}
{{- end }}

{{- define "khb.slackSecretName" -}}
{{- default (printf "%s-slack" (include "khb.fullname" .)) .Values.slack.existingSecret }}
{{- end }}

{{- define "khb.planSecretName" -}}
{{- default (printf "%s-plan-signing" (include "khb.fullname" .)) .Values.planSigning.existingSecret }}
{{- end }}

{{- define "khb.alertmanagerSecretName" -}}
{{- default (printf "%s-alertmanager" (include "khb.fullname" .)) .Values.alertmanager.existingSecret }}
{{- end }}

{{- define "khb.redisAuthSecretName" -}}
{{- default (printf "%s-redis-auth" (include "khb.fullname" .)) .Values.redis.inCluster.auth.existingSecret }}
{{- end }}

{{/* The one Redis source, checked once: an existing Secret, a URL, or the in-cluster Redis. */}}
{{- define "khb.redisEnv" -}}
{{- $sources := 0 }}
{{- range (list .Values.redis.existingSecret .Values.redis.url .Values.redis.inCluster.enabled .Values.redis.sentinels .Values.redis.clusterNodes) }}{{ if . }}{{ $sources = add1 $sources }}{{ end }}{{ end }}
{{- if gt $sources 1 }}
{{- fail "set only one of redis.url, redis.existingSecret, redis.inCluster.enabled, redis.sentinels, redis.clusterNodes" }}
{{- end }}
{{- if and .Values.redis.sentinels (not .Values.redis.sentinelMaster) }}
{{- fail "redis.sentinels is set but redis.sentinelMaster is not: name the master group the sentinels monitor" }}
{{- end }}
{{- if and .Values.redis.sentinelMaster (not .Values.redis.sentinels) }}
{{- fail "redis.sentinelMaster is set but redis.sentinels is not: list the sentinels as host:port" }}
{{- end }}
{{- if .Values.redis.clusterNodes }}
- name: REDIS_CLUSTER_NODES
  value: {{ join "," .Values.redis.clusterNodes | quote }}
{{- with .Values.redis.clusterAuth }}
{{- if .existingSecret }}
- name: REDIS_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ .existingSecret }}
      key: {{ .passwordKey }}
{{- end }}
{{- end }}
{{- else if .Values.redis.sentinels }}
- name: REDIS_SENTINELS
  value: {{ join "," .Values.redis.sentinels | quote }}
- name: REDIS_SENTINEL_MASTER
  value: {{ .Values.redis.sentinelMaster | quote }}
{{- with .Values.redis.sentinelAuth }}
{{- if .existingSecret }}
- name: REDIS_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ .existingSecret }}
      key: {{ .passwordKey }}
{{- if .sentinelPasswordKey }}
- name: REDIS_SENTINEL_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ .existingSecret }}
      key: {{ .sentinelPasswordKey }}
{{- end }}
{{- end }}
{{- end }}
{{- else if .Values.redis.existingSecret }}
- name: REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ .Values.redis.existingSecret }}
      key: {{ .Values.redis.existingSecretKey }}
{{- else if .Values.redis.url }}
{{- /* A URL may carry a password, so it goes through a Secret, never a plain env value. */}}
- name: REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "khb.fullname" . }}-redis-url
      key: REDIS_URL
{{- else if .Values.redis.inCluster.enabled }}
{{- /*
  The in-cluster Redis always requires its password. Kubernetes expands $(REDIS_PASSWORD) in a later
  env value, so the URL is built in the pod and the password never appears in the rendered manifest;
  REDIS_PASSWORD must stay listed before REDIS_URL for that.
*/}}
- name: REDIS_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ include "khb.redisAuthSecretName" . }}
      key: {{ .Values.redis.inCluster.auth.existingSecretKey }}
- name: REDIS_URL
  value: {{ printf "redis://:$(REDIS_PASSWORD)@%s-redis:6379" (include "khb.fullname" .) | quote }}
{{- else }}
{{- fail "no Redis configured: set redis.url, redis.existingSecret, redis.sentinels with redis.sentinelMaster, redis.clusterNodes, or redis.inCluster.enabled=true (see docs/helm.md)" }}
{{- end }}
{{- end }}

{{/*
  Environment of one bot component: call with (dict "ctx" $ "component" "serve"|"worker"|"remediate").
  Each gets only the secrets it uses (docs/design.md "Interfaces"; secrets only from Secrets):
  - serve: the bot token, the signing secret (HTTP) or app token (Socket Mode), Redis, the plan secret (it signs plans);
  - worker (scan, notify, expiry): the bot token and Redis;
  - remediate: the bot token (results go to the thread), Redis, the plan secret (it verifies plans).
*/}}
{{- define "khb.env" -}}
{{- $ := .ctx -}}
- name: K8S_HEALTH_CONFIG
  value: /etc/k8s-health/config/config.yaml
- name: PORT
  value: {{ $.Values.port | quote }}
- name: LOG_LEVEL
  value: {{ $.Values.logLevel | quote }}
- name: SLACK_BOT_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ include "khb.slackSecretName" $ }}
      key: {{ $.Values.slack.secretKeys.botToken }}
{{- if eq .component "serve" }}
{{- if $.Values.slack.socketMode }}
{{- /* Socket Mode is selected by SLACK_APP_TOKEN being set; the signing secret is then unused. */}}
- name: SLACK_APP_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ include "khb.slackSecretName" $ }}
      key: {{ $.Values.slack.secretKeys.appToken }}
{{- else }}
{{- /* HTTP mode: SLACK_APP_TOKEN must NOT be set, or serve would switch to Socket Mode. */}}
- name: SLACK_SIGNING_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ include "khb.slackSecretName" $ }}
      key: {{ $.Values.slack.secretKeys.signingSecret }}
{{- end }}
{{- end }}
{{- with $.Values.slack.apiUrl }}
- name: SLACK_API_URL
  value: {{ . | quote }}
{{- end }}
{{ include "khb.redisEnv" $ | trim }}
{{- if has .component (list "serve" "remediate") }}
- name: K8S_HEALTH_PLAN_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ include "khb.planSecretName" $ }}
      key: {{ $.Values.planSigning.existingSecretKey }}
{{- end }}
{{- if and $.Values.alertmanager.enabled (eq .component "serve") }}
- name: K8S_HEALTH_ALERTMANAGER_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ include "khb.alertmanagerSecretName" $ }}
      key: {{ $.Values.alertmanager.existingSecretKey }}
{{- end }}
{{- with $.Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Pod-level hardening (restricted Pod Security Standard). */}}
{{- define "khb.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .uid }}
runAsGroup: {{ .uid }}
fsGroup: {{ .uid }}
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/* Container-level hardening, on every container of the chart. */}}
{{- define "khb.containerSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .uid }}
runAsGroup: {{ .uid }}
readOnlyRootFilesystem: true
allowPrivilegeEscalation: false
privileged: false
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/*
  Volumes of one bot component (dict "ctx" $ "component" …): the config and a writable /tmp for all;
  the etcd client certificate and the kubeconfigs of remote clusters only for the workers, which talk to
  clusters. serve gets neither: it holds no cluster credential. The remediation worker may get its own
  kubeconfigs (remediation.kubeconfigs) so that remote clusters can give the scan worker a read-only user.
*/}}
{{- define "khb.kubeconfigsSecret" -}}
{{- if eq .component "remediate" }}{{ default .ctx.Values.kubeconfigs.existingSecret .ctx.Values.remediation.kubeconfigs.existingSecret }}
{{- else if eq .component "worker" }}{{ .ctx.Values.kubeconfigs.existingSecret }}
{{- end }}
{{- end }}

{{- define "khb.volumes" -}}
{{- $ := .ctx -}}
- name: config
  configMap:
    name: {{ include "khb.fullname" $ }}-config
- name: tmp
  emptyDir:
    sizeLimit: 64Mi
{{- if ne .component "serve" }}
{{- with $.Values.etcdTls.existingSecret }}
- name: etcd-tls
  secret:
    secretName: {{ . }}
    defaultMode: 288 # 0440 in octal; decimal because YAML 1.1 and 1.2 parsers read 0440 differently
{{- end }}
{{- with include "khb.kubeconfigsSecret" . }}
- name: kubeconfigs
  secret:
    secretName: {{ . }}
    defaultMode: 288 # 0440 in octal; decimal because YAML 1.1 and 1.2 parsers read 0440 differently
{{- end }}
{{- end }}
{{- end }}

{{- define "khb.volumeMounts" -}}
{{- $ := .ctx -}}
- name: config
  mountPath: /etc/k8s-health/config
  readOnly: true
- name: tmp
  mountPath: /tmp
{{- if ne .component "serve" }}
{{- if $.Values.etcdTls.existingSecret }}
- name: etcd-tls
  mountPath: {{ $.Values.etcdTls.mountPath }}
  readOnly: true
{{- end }}
{{- if include "khb.kubeconfigsSecret" . }}
- name: kubeconfigs
  mountPath: {{ $.Values.kubeconfigs.mountPath }}
  readOnly: true
{{- end }}
{{- end }}
{{- end }}

{{/* Checksums roll the pods when the config or a chart-created Secret changes on upgrade. */}}
{{- define "khb.podAnnotations" -}}
checksum/config: {{ include (print .Template.BasePath "/configmap.yaml") . | sha256sum }}
checksum/secret: {{ include (print .Template.BasePath "/secret.yaml") . | sha256sum }}
{{- with .Values.podAnnotations }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Scheduling knobs shared by every pod of the chart. */}}
{{- define "khb.scheduling" -}}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.priorityClassName }}
priorityClassName: {{ . }}
{{- end }}
{{- end }}

{{/* Selects every pod of the bot in this release (serve and both workers), never the Redis pod. */}}
{{- define "khb.botPodSelector" -}}
matchLabels:
  app.kubernetes.io/name: {{ include "khb.name" . }}
  app.kubernetes.io/instance: {{ .Release.Name }}
matchExpressions:
  - { key: app.kubernetes.io/component, operator: In, values: [serve, worker, remediate] }
{{- end }}
