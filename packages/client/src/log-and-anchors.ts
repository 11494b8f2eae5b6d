/** The replies of the public anchoring and log-proof routes (docs/api.md, "Anchors" and "The log"). */

/** `GET /anchors`: where document roots are anchored and how far anchoring has got. */
export interface AnchorStatus {
  provider: 'local' | 'evm' | 'none';
  /** The chain; `rpc_url` is shown only for a local chain (anvil) a reader can query. */
  chain: { provider: string; chain_id: number; contract: string; rpc_url: string | null } | null;
  /** READY documents per anchor state. */
  documents: Record<string, number>;
  rounds: Record<string, unknown>[];
}

/** `GET /log/proof/consistency`: RFC 9162 §2.1.4 consistency proof, nodes as hex. */
export interface ConsistencyProof {
  first: number;
  second: number;
  proof: string[];
}
