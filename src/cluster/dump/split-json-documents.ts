import { describeError } from '../../errors/describe-error.js';
import { CaptureParseError } from '../parse/capture-parse-error.js';

/**
 * The JSON documents of a saved *stdout* of `kubectl cluster-info dump` (without --output-directory):
 * one List per resource and namespace printed one after the other with nothing between them, then
 * each namespace's pod logs between `==== START logs for container … ====` and `==== END logs for … ====`
 * banners (kubectl pkg/cmd/clusterinfo/clusterinfo_dump.go). Logs are skipped whole (they may hold
 * JSON of their own); any other line that does not start a JSON value (a shell prompt, "Cluster info
 * dumped to …") is skipped too. Throws when no document could be read.
 */
export function splitJsonDocuments(text: string): unknown[] {
  const docs: unknown[] = [];
  let firstError: string | undefined;
  let failures = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      i++;
      continue;
    }
    if (text.startsWith('==== START logs for', i)) {
      const end = text.indexOf('==== END logs for', i);
      i = end < 0 ? n : lineEnd(text, end);
      continue;
    }
    if (c === 123 /* { */ || c === 91 /* [ */) {
      const end = valueEnd(text, i);
      // A value that never closes runs to the end of the file: nothing after it can be read either.
      if (end < 0) {
        firstError ??= 'a JSON value is not closed';
        break;
      }
      try {
        docs.push(JSON.parse(text.slice(i, end)));
        i = end;
        continue;
      } catch (e) {
        firstError ??= describeError(e);
        // Each failed value is rescanned from the next line: bound the work on garbage input.
        if (++failures > 100) break;
      }
    }
    i = lineEnd(text, i);
  }
  if (!docs.length) throw new CaptureParseError(`invalid JSON: ${firstError ?? 'no JSON document found'}`);
  return docs;
}

/**
 * Index just past the value starting at `start` (a `{` or `[`), tracking strings and escapes; -1 when it never closes.
 */
function valueEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function lineEnd(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl < 0 ? text.length : nl + 1;
}
