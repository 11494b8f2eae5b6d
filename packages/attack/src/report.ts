/**
 * The attack report (docs/attacks.md): TDR per attack class and configuration, EDR, FBR and UAA with
 * bootstrap intervals, as JSON and as Markdown with a short method section.
 */
import { ABLATIONS, type AblationId } from './ablations.js';
import type { Example, HarnessResult, Outcome } from './harness.js';
import {
  BOOTSTRAP_RESAMPLES,
  bootstrapRate,
  clustersOf,
  type Estimate,
  formatEstimate,
  valueClusters,
} from './metrics.js';
import { ATTACK_CLASSES, ATTACK_NAMES, type AttackClass } from './mutations.js';

export interface AttackReport {
  schema: 'saksi.attack-report/v1';
  generated_at: string;
  seed: number;
  bundles: number;
  collections: Record<string, number>;
  invalid_files: string[];
  presentations: number;
  run_seconds: number;
  generation_seconds: number | null;
  capabilities: HarnessResult['capabilities'];
  configs: { id: AblationId; label: string; layers: string[] }[];
  /** TDR per attack class (A7: any detection) per configuration. */
  tdr: Record<AttackClass | 'ALL', Record<AblationId, Estimate>>;
  /** TDR per attack kind and signing variant per configuration. */
  kinds: { attack: AttackClass; kind: string; variant: string; tdr: Record<AblationId, Estimate> }[];
  edr: Record<AblationId, Estimate>;
  fbr: Record<AblationId, Estimate>;
  uaa: Record<AblationId, Estimate>;
  /** Share of tampered presentations where no altered claim was shown as verified. */
  safety: Record<AblationId, Estimate>;
  byte: { total: number; unparseable: number };
  untampered_claim_blocks: HarnessResult['untamperedClaimBlocks'];
  misses: Record<AblationId, Example[]>;
  c0_targets: { tdr: boolean; edr: boolean; fbr: boolean };
}

function perConfig(
  outcomes: readonly Outcome[],
  filter: (outcome: Outcome) => boolean,
  success: (outcome: Outcome) => boolean,
  seed: number,
): Record<AblationId, Estimate> {
  const out = {} as Record<AblationId, Estimate>;
  for (const ablation of ABLATIONS) {
    const items = outcomes.filter((outcome) => outcome.config === ablation.id && filter(outcome));
    out[ablation.id] = bootstrapRate(
      clustersOf(items, (item) => String(item.bundle), success),
      { seed },
    );
  }
  return out;
}

/** Detection as TDR counts it (A7 included: any failure). */
const tampered = (outcome: Outcome) => outcome.attack !== 'NONE';

export function summarize(
  result: HarnessResult,
  options: { seed: number; runSeconds: number; generationSeconds?: number },
): AttackReport {
  const { outcomes } = result;
  const seed = options.seed;
  const tdr = {} as AttackReport['tdr'];
  for (const attack of ATTACK_CLASSES) {
    tdr[attack] = perConfig(
      outcomes,
      (o) => o.attack === attack,
      (o) => o.detected,
      seed,
    );
  }
  tdr.ALL = perConfig(outcomes, tampered, (o) => o.detected, seed);
  const kindKeys = new Map<string, { attack: AttackClass; kind: string; variant: string }>();
  for (const outcome of outcomes) {
    if (outcome.attack === 'NONE') continue;
    kindKeys.set(`${outcome.attack}/${outcome.kind}/${outcome.variant}`, {
      attack: outcome.attack,
      kind: outcome.kind,
      variant: outcome.variant,
    });
  }
  const kinds = [...kindKeys.values()]
    .sort((a, b) => ATTACK_CLASSES.indexOf(a.attack) - ATTACK_CLASSES.indexOf(b.attack))
    .map((key) => ({
      ...key,
      tdr: perConfig(
        outcomes,
        (o) => o.attack === key.attack && o.kind === key.kind && o.variant === key.variant,
        (o) => o.detected,
        seed,
      ),
    }));
  const uaa = {} as Record<AblationId, Estimate>;
  for (const ablation of ABLATIONS) {
    const items = outcomes.filter((o) => o.config === ablation.id && tampered(o) && o.attack !== 'A7');
    uaa[ablation.id] = bootstrapRate(
      valueClusters(
        items,
        (item) => String(item.bundle),
        (item) => item.utility,
      ),
      { seed },
    );
  }
  const collections: Record<string, number> = {};
  for (const bundle of result.bundles)
    collections[bundle.collection] = (collections[bundle.collection] ?? 0) + 1;
  const report: AttackReport = {
    schema: 'saksi.attack-report/v1',
    generated_at: new Date().toISOString(),
    seed,
    bundles: result.bundles.length,
    collections,
    invalid_files: result.invalid,
    presentations: outcomes.filter((o) => o.config === 'C0').length,
    run_seconds: Math.round(options.runSeconds * 10) / 10,
    generation_seconds:
      options.generationSeconds === undefined ? null : Math.round(options.generationSeconds * 10) / 10,
    capabilities: result.capabilities,
    configs: ABLATIONS.map((ablation) => ({
      id: ablation.id,
      label: ablation.label,
      layers: [...ablation.layers],
    })),
    tdr,
    kinds,
    edr: perConfig(
      outcomes,
      (o) => o.attack === 'A7',
      (o) => o.inconsistent,
      seed,
    ),
    fbr: perConfig(
      outcomes,
      (o) => o.attack === 'NONE',
      (o) => o.detected,
      seed,
    ),
    uaa,
    safety: perConfig(
      outcomes,
      (o) => tampered(o) && o.attack !== 'A7',
      (o) => !o.falseShown,
      seed,
    ),
    byte: { total: result.byteTotal, unparseable: result.byteUnparseable },
    untampered_claim_blocks: result.untamperedClaimBlocks,
    misses: result.misses,
    c0_targets: { tdr: false, edr: false, fbr: false },
  };
  report.c0_targets = {
    tdr: report.tdr.ALL.C0.rate === 1,
    edr: report.edr.C0.rate === 1,
    fbr: report.fbr.C0.rate === 0,
  };
  return report;
}

const pct = (estimate: Estimate) => formatEstimate(estimate);

function row(cells: readonly string[]): string {
  return `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [row(header), row(header.map(() => '---')), ...rows.map(row)];
}

/** The Markdown report. */
export function renderAttackReport(report: AttackReport): string {
  const ids = ABLATIONS.map((ablation) => ablation.id);
  const lines: string[] = [];
  const c0 = (estimate: Estimate) => pct(estimate);
  lines.push('# Attack harness: tamper and equivocation detection');
  lines.push('');
  lines.push(
    `Written by \`saksi attack\` (${report.generated_at.slice(0, 10)}, seed ${report.seed}) on ${report.bundles} bundles (${Object.entries(
      report.collections,
    )
      .map(([name, count]) => `${name} ${count}`)
      .join(
        ', ',
      )}) and ${report.presentations} presentations (${report.presentations - report.bundles} tampered). ` +
      `Attack run ${report.run_seconds} s${report.generation_seconds === null ? '' : `, bundle generation ${report.generation_seconds} s`}.`,
  );
  lines.push('');
  lines.push('## C0 (everything on) against the targets');
  lines.push('');
  lines.push(
    ...table(
      ['Metric', 'C0', 'Target', 'Met'],
      [
        ['TDR (all tamperings)', c0(report.tdr.ALL.C0), '100%', report.c0_targets.tdr ? 'yes' : '**no**'],
        [
          'EDR (A7 caught as CHECKPOINT_INCONSISTENT)',
          c0(report.edr.C0),
          '100%',
          report.c0_targets.edr ? 'yes' : '**no**',
        ],
        [
          'FBR (untampered bundles failing)',
          c0(report.fbr.C0),
          '0%',
          report.c0_targets.fbr ? 'yes' : '**no**',
        ],
        ['UAA (utility under attack)', c0(report.uaa.C0), '–', ''],
      ],
    ),
  );
  lines.push('');
  const missesC0 = report.misses.C0;
  if (missesC0.length > 0) {
    lines.push('**C0 misses** (never hidden):');
    lines.push('');
    for (const miss of missesC0) {
      lines.push(
        `- ${miss.attack} ${miss.kind} (${miss.variant}) on \`${miss.file}\`: ${miss.description} — codes: ${miss.codes.join(', ') || 'none'}`,
      );
    }
    lines.push('');
  }
  lines.push('## TDR per attack class and configuration');
  lines.push('');
  lines.push('Rate with its bootstrap 95% interval; n = tampered presentations (bundles).');
  lines.push('');
  lines.push(
    ...table(
      ['Attack', 'n', ...ids],
      [...ATTACK_CLASSES, 'ALL' as const].map((attack) => [
        attack === 'ALL' ? '**all**' : `${attack} ${ATTACK_NAMES[attack]}`,
        `${report.tdr[attack].C0.trials} (${report.tdr[attack].C0.clusters})`,
        ...ids.map((id) => pct(report.tdr[attack][id])),
      ]),
    ),
  );
  lines.push('');
  lines.push('## EDR, FBR, UAA and safety per configuration');
  lines.push('');
  lines.push(
    ...table(
      ['Metric', ...ids],
      [
        ['EDR', ...ids.map((id) => pct(report.edr[id]))],
        ['FBR', ...ids.map((id) => pct(report.fbr[id]))],
        ['UAA', ...ids.map((id) => pct(report.uaa[id]))],
        ['Safety', ...ids.map((id) => pct(report.safety[id]))],
      ],
    ),
  );
  lines.push('');
  lines.push('## Configurations');
  lines.push('');
  lines.push(
    ...table(
      ['Id', 'What is switched off (cumulative)'],
      report.configs.map((config) => [config.id, config.label]),
    ),
  );
  lines.push('');
  lines.push('## TDR per attack kind and signing variant');
  lines.push('');
  lines.push(
    ...table(
      ['Attack', 'Kind', 'Variant', 'n', ...ids],
      report.kinds.map((kind) => [
        kind.attack,
        kind.kind,
        kind.variant,
        String(kind.tdr.C0.trials),
        ...ids.map((id) => {
          const estimate = kind.tdr[id];
          return estimate.rate === null ? '–' : `${(estimate.rate * 100).toFixed(1)}%`;
        }),
      ]),
    ),
  );
  lines.push('');
  lines.push('## Method');
  lines.push('');
  lines.push(
    `- **Bundles**: a fresh temporary data directory; the three demo collections (traffic law UU 22/2009, the APBN laws, the Redux docs) ingested; their document roots anchored in one round (one transaction) on a local anvil running DocumentRegistry; questions from \`../shared/data/eval\` (lalin-dev, lalin-spec-cases, apbn-dev, redux-dev) and simple variations (prefixes, suffixes) asked round-robin over the collections with the offline extractive generator; each bundle signed by the issuer key, logged, the checkpoint cosigned by the local witness. Questions whose answer has no claim still count for FBR, A6 and A7; attacks that need a claim (A1–A5) are skipped on them.`,
  );
  lines.push(
    `- **Verifier**: \`verifyBundle\` of @saksi/proof runs once per presentation with every option on — trusted issuer, log and witness keys (1 cosignature required), the registry pin and an on-chain lookup against the anvil chain${report.capabilities.onchain ? '' : ' (**not available for this run**)'}, the last checkpoint the verifier follows (the latest genuine one) with consistency proofs${report.capabilities.consistency ? '' : ' (**not available for this run**)'}, and the question the user asked. Each configuration then counts only the checks of its layers (\`CHECK_LAYER\` in ablations.ts) and recomputes the render decisions with \`decideRender\`; \`verifyBundle\` is never weakened. Three checks are the harness's: the display binding (A5: SHA-256 of the text on screen = \`answer.sha256\`), the lexical re-check (the engine's \`checkEntailment\` re-run on each claim against its spans; a claim not entailed is blocked) and, with the render policy off (C6, C7), trusting the certificate's own render flags.`,
  );
  lines.push(
    '- **Attacker**: strong — after each edit it recomputes every commitment it can (claim and answer hashes and offsets, span hash and end, chunk hash in the evidence and the retrieval results, the document root from the Merkle path, the anchor batch root from the batch proof). A1–A4 come in two variants: `keep-signature` (the original signature and log proof kept) and `resign-untrusted` (re-signed with an issuer key nobody trusts, under the same issuer name, and put in the attacker\'s own one-entry log under the genuine origin, without cosignatures). A1: two claims exchange their evidence (or a claim cites another retrieved result); the displayed citation swapped or moved one Pasal on. A2: words inserted into the span, a paraphrase that changes the meaning, a digit changed — in the chunk text, so the span stays at its offsets. A3: "tidak"/"not" inserted, a quantifier changed ("setiap" → "sebagian", "paling banyak" → "paling sedikit", "all" → "some"), a digit changed (or a figure added). A4: a claim dropped (and its text), two claims reordered (the answer rebuilt), every claim dropped. A5: the page displays the answer with a claim negated or a figure changed. A6: the bundle presented for another question of the run, or for a narrower variant of its own. A7: the log operator signs, with the real log key, a checkpoint of the same size with another root (the inclusion proof rewritten to fit), shown (a) to a verifier that remembers the latest genuine checkpoint and gets the genuine consistency proofs, (b) to the witness that cosigned the genuine checkpoint of that size; and (c) a genuine bundle checked by a verifier that was earlier shown a forked latest checkpoint. BYTE: single-character flips (digit → digit, letter → letter) at seeded positions of the bundle\'s JSON; flips that parse back to the same bundle are redrawn.',
  );
  lines.push(
    `- **Metrics**: a tampered presentation is *detected* when the verdict (of the enabled layers) is not VERIFIED, or when the attack altered claims and every altered claim is blocked (for A4, which alters no claim, only a failed verdict counts). **TDR** = detected / tampered presentations (A1–A6, BYTE; A7 counts any failure). **EDR** = A7 presentations caught as \`CHECKPOINT_INCONSISTENT\` / A7 presentations. **FBR** = untampered bundles (checked with their own question) whose verdict fails / untampered bundles. **UAA** (utility under attack) = the mean over tampered presentations (A1–A6, BYTE) whose genuine bundle shows at least one verified claim in that configuration, of: 0 when any altered claim is shown as verified (the reader cannot tell true from false), otherwise the share of the genuine bundle's verified claims still shown as verified, unaltered. Fail-closed verification blocks every claim of a bundle with an integrity failure, so UAA near 0 under C0 is the price of safety: the reader recovers the genuine answer by fetching the certificate by its id from the log. **Safety** = tampered presentations where no altered claim is shown as verified. Byte flips that break the JSON (${report.byte.unparseable} of ${report.byte.total}) count as detected: the client cannot read them.`,
  );
  lines.push(
    `- **Intervals**: percentile bootstrap, ${BOOTSTRAP_RESAMPLES} resamples, seed ${report.seed}, resampling bundles (all presentations of a bundle together, since mutations of one bundle are not independent). When every presentation is detected the percentile interval collapses to [100, 100]; the rule of three then gives a one-sided 95% lower bound of 1 − 3/n (n = presentations of the class).`,
  );
  lines.push(
    `- **Untampered claims**: of ${report.untampered_claim_blocks.rendered} claims the certificates rendered as verified, the C0 verifier blocked ${report.untampered_claim_blocks.blocked}.`,
  );
  if (report.invalid_files.length > 0) {
    lines.push(`- **Not bundles** (skipped): ${report.invalid_files.join(', ')}.`);
  }
  lines.push('');
  const weaker = ids.filter((id) => id !== 'C0' && report.misses[id].length > 0);
  if (weaker.length > 0) {
    lines.push('## Examples of misses in weaker configurations');
    lines.push('');
    for (const id of weaker) {
      for (const miss of report.misses[id].slice(0, 6)) {
        lines.push(`- ${id} · ${miss.attack} ${miss.kind} (${miss.variant}): ${miss.description}`);
      }
    }
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}
