import { K8sHealthError } from '../../errors/k8s-health-error.js';

/** `serve` cannot start its Slack side; `message` is one line that says which variable to fix. */
export class SlackStartupError extends K8sHealthError {
  override readonly name = 'SlackStartupError';
  declare readonly code: 'E_SLACK_TOKEN_MISSING' | 'E_SLACK_SECRET_MISSING' | 'E_SLACK_AUTH';
  constructor(code: SlackStartupError['code'], message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
