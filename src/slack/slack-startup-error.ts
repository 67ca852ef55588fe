/** `serve` cannot start its Slack side; `message` is one line that says which variable to fix. */
export class SlackStartupError extends Error {
  override readonly name = 'SlackStartupError';
  constructor(
    readonly code: 'E_SLACK_TOKEN_MISSING' | 'E_SLACK_SECRET_MISSING' | 'E_SLACK_AUTH',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
