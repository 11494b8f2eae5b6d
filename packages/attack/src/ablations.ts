/**
 * Ablations C0…C7 (docs/attacks.md): which layers of verification a verifier runs. `verifyBundle` itself is
 * never weakened: the harness runs it once with every option on and then, per configuration, counts
 * only the checks of the layers switched on, and recomputes the render decisions with the same
 * `decideRender` of @saksi/proof. Three layers are not `verifyBundle` checks and are computed here:
 * the display binding (A5: the text on screen hashes to `answer.sha256`), the lexical re-check of
 * every claim against its evidence spans (the engine's own verifier, run again by the verifier), and
 * trusting the certificate's own render flags when the verifier-side render policy is off.
 */
import {
  type BundleVerification,
  type Certificate,
  type CheckId,
  decideRender,
  type IntegrityCode,
  validateBundle,
} from '@saksi/proof';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';

export type Layer =
  | 'witness'
  | 'consistency'
  | 'signature'
  | 'log'
  | 'anchors'
  | 'lexical_recheck'
  | 'render_policy'
  | 'document_proofs'
  | 'hashes'
  | 'replay'
  | 'display';

export const ALL_LAYERS: readonly Layer[] = [
  'witness',
  'consistency',
  'signature',
  'log',
  'anchors',
  'lexical_recheck',
  'render_policy',
  'document_proofs',
  'hashes',
  'replay',
  'display',
];

export type AblationId = 'C0' | 'C1' | 'C2' | 'C3' | 'C4' | 'C5' | 'C6' | 'C7';

export interface Ablation {
  id: AblationId;
  label: string;
  layers: ReadonlySet<Layer>;
}

function without(layers: readonly Layer[], ...off: Layer[]): Layer[] {
  return layers.filter((layer) => !off.includes(layer));
}

const C0 = [...ALL_LAYERS];
const C1 = without(C0, 'witness', 'consistency');
const C2 = without(C1, 'signature');
const C3 = without(C2, 'log');
const C4 = without(C3, 'anchors');
const C5 = without(C4, 'lexical_recheck');
const C6 = without(C5, 'render_policy', 'document_proofs');
const C7 = without(C6, 'hashes', 'replay', 'display');

/** The configurations, each switching off more than the one before. */
export const ABLATIONS: readonly Ablation[] = [
  { id: 'C0', label: 'everything on', layers: new Set(C0) },
  { id: 'C1', label: '− witness cosignatures and checkpoint consistency', layers: new Set(C1) },
  { id: 'C2', label: '− issuer signature', layers: new Set(C2) },
  { id: 'C3', label: '− transparency log (checkpoint signature, inclusion)', layers: new Set(C3) },
  { id: 'C4', label: '− anchors (batch proof, on-chain lookup)', layers: new Set(C4) },
  { id: 'C5', label: '− lexical claim re-check (verifier kind: trust the label)', layers: new Set(C5) },
  {
    id: 'C6',
    label: '− verifier render policy (numbers, qualifiers) and document proofs',
    layers: new Set(C6),
  },
  {
    id: 'C7',
    label: 'minimal: schema only (hashes, offsets, replay and display checks off)',
    layers: new Set(C7),
  },
];

/** Which layer each `verifyBundle` check belongs to; `structure` is always on. */
export const CHECK_LAYER: Record<CheckId, Layer | 'structure'> = {
  structure: 'structure',
  issuer: 'signature',
  signature: 'signature',
  hashes: 'hashes',
  claim_offsets: 'hashes',
  spans: 'hashes',
  compositions: 'hashes',
  citations: 'hashes',
  document_proofs: 'document_proofs',
  anchor_proofs: 'anchors',
  anchor_onchain: 'anchors',
  query_replay: 'replay',
  checkpoint_signature: 'log',
  log_inclusion: 'log',
  cosignatures: 'witness',
  checkpoint_consistency: 'consistency',
};

/** What the harness found beyond `verifyBundle` for one presentation. */
export interface ExtraChecks {
  /** The bundle did not parse as JSON at all. */
  unparseable?: boolean;
  /** Display binding: whether the text on screen hashes to `answer.sha256` (undefined: the certified text is shown). */
  displayOk?: boolean;
  /** Per claim of the presented certificate: the lexical re-check finds it entailed by its spans. */
  recheck?: readonly boolean[] | undefined;
}

export interface Decision {
  verdict: 'verified' | 'failed';
  /** Integrity codes of the enabled layers (plus `DISPLAY_MISMATCH` / `UNPARSEABLE` from the harness). */
  codes: string[];
  /** Per claim id of the presented certificate: shown as verified? */
  rendered: Map<string, boolean>;
}

/** The verdict and per-claim render decisions a verifier running only `ablation.layers` reaches. */
export function decide(
  ablation: Ablation,
  input: unknown,
  verification: BundleVerification | null,
  extras: ExtraChecks = {},
): Decision {
  const rendered = new Map<string, boolean>();
  if (extras.unparseable || verification === null) {
    return { verdict: 'failed', codes: ['UNPARSEABLE'], rendered };
  }
  const codes: string[] = [];
  for (const check of verification.checks) {
    const layer = CHECK_LAYER[check.id];
    if (layer !== 'structure' && !ablation.layers.has(layer)) continue;
    for (const problem of check.problems) if (!codes.includes(problem.code)) codes.push(problem.code);
  }
  if (ablation.layers.has('display') && extras.displayOk === false) codes.push('DISPLAY_MISMATCH');
  if (codes.includes('MALFORMED' satisfies IntegrityCode) && verification.certificate_id === null) {
    return { verdict: 'failed', codes, rendered };
  }
  let certificate: Certificate;
  try {
    certificate = validateBundle(input).certificate;
  } catch {
    return { verdict: 'failed', codes: codes.length > 0 ? codes : ['MALFORMED'], rendered };
  }
  const integrityOk = codes.length === 0;
  const anchorsChecked =
    ablation.layers.has('anchors') &&
    verification.checks.some((check) => check.id === 'anchor_onchain' && check.status === 'pass');
  const anchoredClaims = certificate.claims.map(
    (claim) => anchorsChecked && claim.evidence.length > 0 && claim.evidence.every((item) => item.anchor),
  );
  const policy = ablation.layers.has('render_policy')
    ? decideRender(certificate, { integrityOk, anchoredClaims, vocabulary: SAKSI_VOCABULARY }).map(
        (decision) => decision.rendered,
      )
    : certificate.claims.map((claim) => integrityOk && claim.render.rendered);
  certificate.claims.forEach((claim, index) => {
    let shown = policy[index] === true;
    if (shown && ablation.layers.has('lexical_recheck') && extras.recheck?.[index] === false) shown = false;
    // Claim ids can repeat in a tampered bundle: any copy shown counts as shown.
    rendered.set(claim.claim_id, shown || rendered.get(claim.claim_id) === true);
  });
  return { verdict: integrityOk ? 'verified' : 'failed', codes, rendered };
}
