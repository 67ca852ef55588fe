import type { KindSpec } from '../../kinds.js';

/** What a dump file's path says about the kind of the kind-less objects in it. */
export interface PathKind {
  /** A kind we read. */
  spec?: KindSpec;
  /** The path names a kind we do not read (ConfigMaps, Jobs…): its kind-less items are ignored silently. */
  unread?: boolean;
}

/**
 * One capture format `check --from` reads (the registry is layouts/index.ts). Each says only what is
 * its own; a format that needs none of the hooks is still listed, so the list names every format read.
 */
export interface DumpLayout {
  /** The format, as docs and notes name it. */
  name: string;
  /** Entries of the dump root that hold no objects of the workload cluster (read apart, or not at all). */
  reserved?: readonly string[];
  /**
   * The kind of the kind-less items of a file (typed lists printed by kubectl or troubleshoot have an
   * empty TypeMeta): `dirs` are the folders of its path, `base` its name without the extension.
   * Undefined: this layout does not name this path.
   */
  kindFromPath?(dirs: readonly string[], base: string): PathKind | undefined;
  /** A `.txt` file holds objects (not a log): told from its first bytes. */
  holdsObjects?(head: string): boolean;
  /** A file of collection errors, not of objects: the objects file it speaks about (for its kind). */
  errorsFileOf?(file: string): string | undefined;
}
