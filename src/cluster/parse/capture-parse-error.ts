import { K8sHealthError } from '../../errors/k8s-health-error.js';

/**
 * A capture file (etcdctl output, a JSON or YAML object file) that is not in a form the bot reads. The
 * dump reader catches it and lists the file under "Not read" with this message, so the message names
 * the file's part that is wrong (the row, the entry, the missing column) in one line.
 */
export class CaptureParseError extends K8sHealthError {
  override readonly name = 'CaptureParseError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_CAPTURE_PARSE', message, options);
  }
}
