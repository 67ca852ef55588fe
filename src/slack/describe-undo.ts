import type { ActionId } from '../diagnose/finding.js';

/**
 * The undo of each catalog action, in words for the approval message (docs/design.md "Fix
 * catalog", column "undo"). An undo is never automatic: after the run, an undo button proposes it as a
 * new request that needs its own approvals.
 */
export const UNDO_OF: Readonly<Record<ActionId, string>> = {
  'etcd.move-leader': 'none needed: leadership can be moved again by another proposal.',
  'etcd.remove-member': 'none: a removed member comes back only by adding it again by hand (etcdctl member add) or by Cluster API replacing its machine.',
  'webhook.suspend': 'restore the webhook: its configuration is backed up before the delete, and an undo button proposes restoring exactly that backup.',
  'webhook.restore': 'suspend it again with a new proposal.',
  'deployment.scale': 'scale back: the replica count it replaces is recorded, and an undo button proposes scaling back to it.',
  'node.out-of-service': 'remove the taint: an undo button proposes removing it once the node is back.',
  'node.remove-out-of-service': 'none needed: this is itself the undo of the out-of-service taint.',
  'node.delete': 'none: the Node is backed up before the delete, but only its kubelet (or a new machine) registers a Node again.',
  'pod.force-delete': 'none: the pod is gone; its controller (if any) creates a new one.',
  'machine.skip-drain': 'wait for the drain again: an undo button proposes removing the annotation while the Machine still exists.',
  'machine.wait-for-drain': 'none needed: this is itself the undo of skipping the drain.',
  'machine.skip-volume-detach': 'wait for the volume detach again: an undo button proposes removing the annotation while the Machine still exists.',
  'machine.wait-for-volume-detach': 'none needed: this is itself the undo of skipping the volume detach.',
  'mhc.pause-remediation': 'resume remediation: an undo button proposes removing the pause annotation.',
  'mhc.resume-remediation': 'none needed: this is itself the undo of pausing remediation.',
};
