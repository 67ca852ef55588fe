import { K8sHealthError } from '../errors/k8s-health-error.js';

/** Why a webhook was refused: a label for `/metrics` and the log. */
export type AlertmanagerRefusal = 'malformed' | 'version' | 'too-large' | 'unauthorized';

/** A webhook body the bot refuses (a 4xx with this one line; Alertmanager does not retry a 4xx). */
export class AlertmanagerInputError extends K8sHealthError {
  override readonly name: string = 'AlertmanagerInputError';
  constructor(
    readonly reason: AlertmanagerRefusal,
    message: string,
  ) {
    super('E_ALERTMANAGER_INPUT', message);
  }
}
