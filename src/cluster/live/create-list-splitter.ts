/** The list's own fields (everything but `items`), known once the whole answer was read. */
export interface ListEnvelope {
  apiVersion?: string;
  kind?: string;
  metadata?: { continue?: string; resourceVersion?: string; remainingItemCount?: number };
}

/** Feeds text chunks of one Kubernetes List answer; hands over each element of `items`, parsed. */
export interface ListSplitter {
  /** The next chunk of the answer (any split, even inside a string or an escape). */
  write(chunk: string): void;
  /**
   * After the last chunk: the envelope (items removed). Throws SyntaxError when the answer is not a complete JSON
   * object.
   */
  end(): ListEnvelope;
}

const QUOTE = 34;
const BACKSLASH = 92;
/** `"items":` as a key of the root object: its opening quote follows `{` or `,` (else it is inside a string). */
const ITEMS_KEY = /[{,]\s*"items"\s*:\s*$/;
/** `{"key":` at the start of an item (sticky). */
const FIRST_KEY = /\{"([^"\\]*)":/y;

/**
 * A streaming splitter for `{ "kind", "apiVersion", "metadata", "items": [ ... ] }`:
 * only the top-level `items` array is cut into elements, each parsed and handed to `onItem` as soon
 * as it is complete, with the list's apiVersion/kind when they came before `items` (as kube-apiserver
 * sends them; otherwise items are held until the end so the header is known).
 * A page of 500 pods is thus never held whole, as text or as objects: each item is parsed, projected
 * and dropped while young, which keeps the collector's peak memory flat.
 * Items take the fast path (feedFast); the envelope and anything unusual take the exact scanner
 * (scan), which tracks only strings (with escapes) and bracket depth. JSON.parse validates the rest.
 */
export function createListSplitter(
  onItem: (item: unknown, list: { apiVersion?: string; kind?: string }) => void,
  /** Called once when `items` starts, with the fields read so far (metadata.continue, when it came first). */
  onItemsStart?: (early: ListEnvelope) => void,
): ListSplitter {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let inItems = false;
  /** Text outside the items' elements: the envelope, with `"items":[]`. */
  const envelope: string[] = [];
  /** Text of the element in progress when it spans chunks. */
  let itemParts: string[] = [];
  let itemOpen = false;
  let header: { apiVersion?: string; kind?: string } | undefined;
  const held: unknown[] = [];
  // Fast path state: items text not yet handed over, starting at an item boundary.
  let fast = true;
  let fastMode = false;
  let buf = '';
  let searchFrom = 0;

  const emitValue = (value: unknown) => {
    if (header && typeof header.apiVersion === 'string' && typeof header.kind === 'string') onItem(value, header);
    else held.push(value);
  };
  const emit = (json: string) => emitValue(JSON.parse(json));

  /**
   * The fast path for items (scanning every character in JS cost half as much as JSON.parse).
   * An item's end is guessed natively with indexOf: the next item starts with `},{"<first key of this
   * item>":`. A guess is accepted only when JSON.parse of the text up to it succeeds, which is exact:
   * a proper prefix of a JSON object is never valid JSON, and a cut inside a string never parses.
   * Anything unusual (non-object items, whitespace, repeated wrong guesses) goes to the exact scanner.
   */
  function feedFast(chunk: string): void {
    buf += chunk;
    let failures = 0;
    for (;;) {
      let p = 0;
      while (p < buf.length && (buf.charCodeAt(p) === 44 || buf.charCodeAt(p) <= 32)) p++;
      if (p >= buf.length) {
        buf = '';
        searchFrom = 0;
        return;
      }
      const c = buf.charCodeAt(p);
      if (c !== 123) return toScanner(p); // ']' ends items; anything else is unusual
      FIRST_KEY.lastIndex = p;
      const key = FIRST_KEY.exec(buf);
      if (!key) {
        if (buf.length - p < 4096) return void ((buf = buf.slice(p)), (searchFrom = 0)); // the key may be incomplete
        return toScanner(p);
      }
      const marker = `},{"${key[1]}":`;
      let from = Math.max(searchFrom, p);
      for (;;) {
        const q = buf.indexOf(marker, from);
        if (q < 0) {
          buf = buf.slice(p);
          searchFrom = Math.max(0, buf.length - marker.length);
          return;
        }
        let value: unknown;
        try {
          value = JSON.parse(buf.slice(p, q + 1));
        } catch {
          if (++failures > 8) return toScanner(p);
          from = q + 1;
          continue;
        }
        failures = 0;
        buf = buf.slice(q + 1);
        searchFrom = 0;
        emitValue(value);
        break;
      }
    }
  }

  /** Leave the fast path: the exact scanner takes over at an item boundary (`p`). */
  function toScanner(p: number): void {
    if (buf.charCodeAt(p) !== 93) fast = false; // not the end of items: unusual list, stay exact
    fastMode = false;
    const rest = buf.slice(p);
    buf = '';
    searchFrom = 0;
    scan(rest);
  }

  return {
    write(s: string) {
      if (fastMode) feedFast(s);
      else scan(s);
    },
    end() {
      if (fastMode) toScanner(0);
      if (depth !== 0 || inString || itemOpen) throw new SyntaxError('the answer ended inside a JSON value');
      const list = JSON.parse(envelope.join('')) as ListEnvelope & { items?: unknown };
      if (!list || typeof list !== 'object' || Array.isArray(list))
        throw new SyntaxError('the answer is not a JSON object');
      header = { apiVersion: list.apiVersion, kind: list.kind };
      for (const value of held.splice(0)) onItem(value, header);
      return list;
    },
  };

  /** The exact scanner: envelope text, and items the fast path left to it. */
  function scan(s: string): void {
    const n = s.length;
    let segStart = 0; // start of this chunk's envelope text, or of the open item
    let i = 0;
    if (inString) {
      i = skipString(s, 0);
      if (i < 0) return keep(s);
      inString = false;
      if (inItems && depth === 2 && itemOpen) (closeItem(s, 0, i), (segStart = i + 1)); // a string element
      i++;
    }
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c === QUOTE) {
        if (inItems && depth === 2 && !itemOpen) {
          itemOpen = true; // a string element
          segStart = i;
        }
        const end = skipString(s, i + 1);
        if (end < 0) {
          inString = true;
          return keep(s, segStart);
        }
        i = end;
        if (inItems && depth === 2 && itemOpen) (closeItem(s, segStart, i), (segStart = i + 1));
      } else if (c === 123 || c === 91) {
        // '{' or '['
        if (inItems && depth === 2 && !itemOpen) {
          itemOpen = true;
          segStart = i;
        } else if (!inItems && depth === 1 && c === 91 && ITEMS_KEY.test(envelope.join('') + s.slice(segStart, i))) {
          envelope.push(s.slice(segStart, i + 1));
          segStart = i + 1;
          inItems = true;
          const early = parseEarly(envelope.join('') + ']}');
          header = early && { apiVersion: str(early.apiVersion), kind: str(early.kind) };
          if (early) onItemsStart?.(early);
          if (fast) {
            depth++;
            fastMode = true;
            return feedFast(s.slice(i + 1));
          }
        }
        depth++;
      } else if (c === 125 || c === 93) {
        // '}' or ']'
        if (inItems && depth === 2) {
          // the ']' that closes items (after a scalar element, if one is open)
          if (itemOpen) closeItem(s, segStart, i - 1);
          inItems = false;
          segStart = i; // the envelope resumes with this ']'
          depth--;
          continue;
        }
        depth--;
        if (inItems && depth === 2 && itemOpen) (closeItem(s, segStart, i), (segStart = i + 1));
      } else if (inItems && depth === 2) {
        if (c === 44) {
          // ',' ends a scalar element
          if (itemOpen) closeItem(s, segStart, i - 1);
          segStart = i + 1;
        } else if (!itemOpen && c > 32) {
          itemOpen = true; // a scalar element (number, true, false, null)
          segStart = i;
        }
      }
    }
    keep(s, segStart);

    function keep(text: string, from = 0): void {
      if (itemOpen) itemParts.push(text.slice(from));
      else if (!inItems) envelope.push(text.slice(from));
    }
    function closeItem(text: string, from: number, to: number): void {
      itemParts.push(text.slice(from, to + 1));
      const json = itemParts.length === 1 ? itemParts[0]! : itemParts.join('');
      itemParts = [];
      itemOpen = false;
      if (json.trim()) emit(json.trim());
    }
  }

  /** Index of the closing quote of a string whose body starts at `from`, or -1 when the chunk ends first. */
  function skipString(s: string, from: number): number {
    let i = from;
    if (escaped) {
      escaped = false;
      i++;
    }
    for (;;) {
      const q = s.indexOf('"', i);
      if (q < 0) {
        let k = s.length - 1;
        while (k >= i && s.charCodeAt(k) === BACKSLASH) k--;
        escaped = (s.length - 1 - k) % 2 === 1;
        return -1;
      }
      let k = q - 1;
      while (k >= i && s.charCodeAt(k) === BACKSLASH) k--;
      if ((q - 1 - k) % 2 === 0) return q;
      i = q + 1;
    }
  }
}

function parseEarly(json: string): ListEnvelope | undefined {
  try {
    const h = JSON.parse(json) as ListEnvelope;
    return h && typeof h === 'object' && !Array.isArray(h) ? h : undefined;
  } catch {
    return undefined;
  }
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
