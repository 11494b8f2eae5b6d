/** The replies of the public anchoring and log-proof routes (docs/api.md, "Anchors" and "The log"). */
import type { ResponseBody } from './types.js';
import type { Schemas } from './wire.js';

/** `GET /anchors`: where document roots are anchored and how far anchoring has got. */
export type AnchorStatus = Schemas['AnchorStatus'];

/** `GET /log/proof/consistency`: RFC 9162 §2.1.4 consistency proof, nodes as hex. */
export type ConsistencyProof = ResponseBody<'getConsistencyProof'>;
