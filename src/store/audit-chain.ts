import { createHash, randomBytes } from 'node:crypto';
import type { PlanSigner } from '../approvals/plan-signer.js';

/**
 * The audit stream's chain format. Every record carries the id of its chain, its sequence number
 * (1, 2, 3 … with no gap), the hash of the record before it (`prev`, '' for #1), its own `hash`
 * (sha256 over all of that and the event JSON exactly as stored) and, in processes holding
 * K8S_HEALTH_PLAN_SECRET, a `mac` over the same. The head key names the chain, the newest sequence
 * number and hash, and the stream's cap, under a MAC of its own: so records cut from either end, a
 * rebuilt or restarted chain and records without chain fields all show (store/verify-audit-log.ts).
 */
export interface AuditHead {
  chain: string;
  seq: number;
  hash: string;
  /** The stream's exact MAXLEN: with it, the oldest record kept is #max(1, seq − cap + 1). */
  cap: number;
  mac: string;
}

/** The stream holds at most this many records (trimmed exactly, oldest first, in the append). */
export const MAX_AUDIT_EVENTS = 100000;

export function hashAuditRecordV2(r: { chain: string; seq: number; prev: string; event: string }): string {
  return createHash('sha256').update(`${r.chain}\n${r.seq}\n${r.prev}\n${r.event}`).digest('hex');
}

export function newAuditChainId(): string {
  return randomBytes(8).toString('hex');
}

export function signAuditRecord(
  signer: PlanSigner | undefined,
  r: { chain: string; seq: number; prev: string; hash: string },
): string {
  return signer?.ready ? signer.sign('audit', { chain: r.chain, seq: r.seq, prev: r.prev, hash: r.hash }) : '';
}

export function verifyAuditRecordMac(
  signer: PlanSigner,
  r: { chain: string; seq: number; prev: string; hash: string },
  mac: string | undefined,
): boolean {
  return signer.verify('audit', { chain: r.chain, seq: r.seq, prev: r.prev, hash: r.hash }, mac);
}

export function signAuditHead(signer: PlanSigner | undefined, h: Omit<AuditHead, 'mac'>): AuditHead {
  return {
    ...h,
    mac: signer?.ready ? signer.sign('audit-head', { chain: h.chain, seq: h.seq, hash: h.hash, cap: h.cap }) : '',
  };
}

export function verifyAuditHeadMac(signer: PlanSigner, h: AuditHead): boolean {
  return signer.verify('audit-head', { chain: h.chain, seq: h.seq, hash: h.hash, cap: h.cap }, h.mac);
}

/** The head key's value, if it is one (a bare 64-hex hash is the head of the older unsigned format). */
export function parseAuditHead(raw: string | null | undefined): AuditHead | undefined {
  if (!raw || !raw.startsWith('{')) return undefined;
  try {
    const h = JSON.parse(raw) as Partial<AuditHead>;
    if (
      typeof h.chain === 'string' &&
      Number.isSafeInteger(h.seq) &&
      typeof h.hash === 'string' &&
      Number.isSafeInteger(h.cap) &&
      typeof h.mac === 'string'
    )
      return h as AuditHead;
  } catch {
    // not a head
  }
  return undefined;
}

/** The oldest sequence number a stream with this head may hold (the cap trims older ones). */
export function oldestKeptSeq(head: Pick<AuditHead, 'seq' | 'cap'>): number {
  return Math.max(1, head.seq - head.cap + 1);
}
