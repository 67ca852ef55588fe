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

{{- define "khb.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "khb.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- required "serviceAccount.name is required when serviceAccount.create is false" .Values.serviceAccount.name }}
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

{{/* The one Redis source, checked once: an existing Secret, a URL, or the in-cluster Redis. */}}
{{- define "khb.redisEnv" -}}
{{- $sources := 0 }}
{{- range (list .Values.redis.existingSecret .Values.redis.url .Values.redis.inCluster.enabled) }}{{ if . }}{{ $sources = add1 $sources }}{{ end }}{{ end }}
{{- if gt $sources 1 }}
{{- fail "set only one of redis.url, redis.existingSecret, redis.inCluster.enabled" }}
{{- end }}
{{- if .Values.redis.existingSecret }}
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
- name: REDIS_URL
  value: {{ printf "redis://%s-redis:6379" (include "khb.fullname" .) | quote }}
{{- else }}
{{- fail "no Redis configured: set redis.url, redis.existingSecret, or redis.inCluster.enabled=true (see docs/helm.md)" }}
{{- end }}
{{- end }}

{{/* Environment shared by serve and worker (DESIGN.md "Interfaces"; secrets only from Secrets). */}}
{{- define "khb.env" -}}
- name: K8S_HEALTH_CONFIG
  value: /etc/k8s-health/config/config.yaml
- name: PORT
  value: {{ .Values.port | quote }}
- name: LOG_LEVEL
  value: {{ .Values.logLevel | quote }}
- name: SLACK_BOT_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ include "khb.slackSecretName" . }}
      key: {{ .Values.slack.secretKeys.botToken }}
{{- if .Values.slack.socketMode }}
{{- /* Socket Mode is selected by SLACK_APP_TOKEN being set; the signing secret is then unused. */}}
- name: SLACK_APP_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ include "khb.slackSecretName" . }}
      key: {{ .Values.slack.secretKeys.appToken }}
{{- else }}
{{- /* HTTP mode: SLACK_APP_TOKEN must NOT be set, or serve would switch to Socket Mode. */}}
- name: SLACK_SIGNING_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ include "khb.slackSecretName" . }}
      key: {{ .Values.slack.secretKeys.signingSecret }}
{{- end }}
{{- with .Values.slack.apiUrl }}
- name: SLACK_API_URL
  value: {{ . | quote }}
{{- end }}
{{ include "khb.redisEnv" . | trim }}
{{- with .Values.extraEnv }}
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

{{/* Volumes of the bot pods: config, writable /tmp, and the optional read-only Secrets. */}}
{{- define "khb.volumes" -}}
- name: config
  configMap:
    name: {{ include "khb.fullname" . }}-config
- name: tmp
  emptyDir:
    sizeLimit: 64Mi
{{- with .Values.etcdTls.existingSecret }}
- name: etcd-tls
  secret:
    secretName: {{ . }}
    defaultMode: 288 # 0440 in octal; decimal because YAML 1.1 and 1.2 parsers read 0440 differently
{{- end }}
{{- with .Values.kubeconfigs.existingSecret }}
- name: kubeconfigs
  secret:
    secretName: {{ . }}
    defaultMode: 288 # 0440 in octal; decimal because YAML 1.1 and 1.2 parsers read 0440 differently
{{- end }}
{{- end }}

{{- define "khb.volumeMounts" -}}
- name: config
  mountPath: /etc/k8s-health/config
  readOnly: true
- name: tmp
  mountPath: /tmp
{{- if .Values.etcdTls.existingSecret }}
- name: etcd-tls
  mountPath: {{ .Values.etcdTls.mountPath }}
  readOnly: true
{{- end }}
{{- if .Values.kubeconfigs.existingSecret }}
- name: kubeconfigs
  mountPath: {{ .Values.kubeconfigs.mountPath }}
  readOnly: true
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
