/**
 * Defaults that commands read without a config file, kept free of the schema library: `check --from`
 * with no config file needs only these, and loading zod is most of its start-up (target 10).
 * config-schema.ts takes its defaults from here, so there is one value for each.
 */

/** Detector thresholds (config `thresholds:`); the schema's defaults are these. */
export const DEFAULT_THRESHOLDS = {
  /** Machine Provisioning/Provisioned without a Node for longer than this (seed S0: CAPV's 20-minute timeout). */
  provisioningMinutes: 20,
  /** Machine Deleting for longer than this. */
  deletingMinutes: 20,
  /** This many replacements of one owner's machines within the window is a recreation loop (seed S3). */
  loopReplacements: 3,
  loopWindowMinutes: 90,
  /** A KCP/MachineDeployment rollout with no progress for this long is stuck (seed S2). */
  upgradeStuckMinutes: 30,
  /** A pod Terminating this long past its grace period is stuck (seed S4). */
  terminatingGraceMinutes: 5,
  /** A node NotReady for less than this is not reported at all (benign look-alike: under a minute). */
  notReadyGraceSeconds: 60,
} as const;

/**
 * The project's own docs, where `slack.runbookBaseUrl` points when unset. package.json names no
 * repository, so this is the conventional location of this repository; set the key to your fork or
 * internal mirror so the links resolve where your team reads them.
 */
export const DEFAULT_RUNBOOK_BASE_URL = 'https://github.com/k8s-health-bot/k8s-health-bot/blob/main';
