import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RemediationProposal } from '../diagnose/finding.js';

/** A remediation proposed in Slack, stored under an opaque id that is the button's only value. */
export interface StoredProposal {
  cluster: string;
  findingId: string;
  fingerprint: string;
  proposal: RemediationProposal;
  /** ISO time it was proposed. */
  createdAt: string;
}

export interface ProposalStore {
  /** Store a proposal; returns its opaque id. */
  save(p: StoredProposal): Promise<string>;
  get(id: string): Promise<StoredProposal | undefined>;
}

/** Proposals outlive their message for a week; a click freezes one into a plan (approvals/request/propose-fix.ts). */
const TTL_SECONDS = 7 * 24 * 3600;

/**
 * Buttons carry only an opaque id (docs/development.md, "Slack specifics"): the proposal itself stays server-side in
 * Redis under `<keyPrefix>proposal:<id>`, so a forged click cannot smuggle parameters in.
 */
export function createProposalStore(redis: Redis, opts: { keyPrefix: string }): ProposalStore {
  const key = (id: string) => `${opts.keyPrefix}proposal:${id}`;
  return {
    async save(p) {
      const id = `p_${randomBytes(12).toString('base64url')}`;
      await redis.set(key(id), JSON.stringify(p), 'EX', TTL_SECONDS);
      return id;
    },
    async get(id) {
      // Ids are ours; anything else is a forged or mangled value and never reaches Redis as a key pattern.
      if (!/^p_[A-Za-z0-9_-]{1,64}$/.test(id)) return undefined;
      const raw = await redis.get(key(id));
      return raw ? (JSON.parse(raw) as StoredProposal) : undefined;
    },
  };
}
