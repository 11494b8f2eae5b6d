/**
 * `saksi inspect` on certificate v1.1: the three results as the certificate states them (nothing
 * verified), each composition and relevance, and a refusal with its reason.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type Bundle, type Certificate, parseJson } from '@saksi/proof';
import { describe, expect, it } from 'vitest';
import { renderInspection } from './inspect.js';
import type { Style } from './io.js';

const fixtures = path.resolve(import.meta.dirname, '../../proof/__fixtures__');
const read = (name: string) => parseJson(readFileSync(path.join(fixtures, name), 'utf8')) as Bundle;
const plain: Style = {
  enabled: false,
  green: (text) => text,
  red: (text) => text,
  yellow: (text) => text,
  dim: (text) => text,
  bold: (text) => text,
};

describe('saksi inspect on v1.1 certificates', () => {
  it('states the results without verifying them, with each composition and relevance', () => {
    const bundle = read('golden-v1.1-bundle.json');
    const out = renderInspection(bundle.certificate, bundle, plain, 120);
    expect(out).toMatch(/Schema\s+saksi\.certificate\/v1\.1/);
    expect(out).toContain('\n  Authentic:  not checked — run saksi verify\n');
    expect(out).toContain('\n  Supported:  2 claims, by verbatim × 1, composed (law.sanction) × 1\n');
    expect(out).toContain('\n  Relevant:   0.74 ≥ 0.30 (lexical-v3 3)\n');
    expect(out).toContain('\n  Answer: answered\n');
    expect(out).toContain('composed with template law.sanction (id), 10 parts: "Menurut " cite 0 ": "');
    expect(out).toContain('relevance 0.81 ≥ 0.30 (lexical-v3 3)');
  });

  it('says a v1 certificate records no relevance or outcome', () => {
    const bundle = read('golden-bundle.json');
    const out = renderInspection(bundle.certificate, bundle, plain, 120);
    expect(out).toContain('\n  Relevant:   not recorded (certificate v1)\n');
    expect(out).not.toContain('Answer:');
    expect(out).not.toContain('composed with template');
  });

  it('prints a refusal as "Answer: refused (REASON)", a bare certificate too', () => {
    const certificate: Certificate = structuredClone(read('golden-v1.1-bundle.json').certificate);
    certificate.claims = [];
    delete certificate.answer.relevance;
    certificate.answer.outcome = 'refused';
    certificate.answer.refusal = { reason: 'MISSING_SLOT' };
    const out = renderInspection(certificate, undefined, plain, 120);
    expect(out).toContain('\n  Answer: refused (MISSING_SLOT)\n');
    expect(out).not.toContain('Supported:');
    expect(out).toContain('bare certificate');
  });

  it('states a v1.2 answer check as the one minimum, and a related outcome', () => {
    const certificate: Certificate = structuredClone(read('golden-v1.1-bundle.json').certificate);
    certificate.answer.check = {
      method: { id: 'answer-check', version: '1' },
      score: 0.41,
      threshold: 0.62,
      alpha: 0.05,
      calibration_sha256: 'ab'.repeat(32),
      asked: 'amount',
      constraints: ['year:2013'],
    };
    certificate.answer.outcome = 'related';
    const out = renderInspection(certificate, undefined, plain, 120);
    expect(out).toContain(
      '\n  Answers:    answer check 0.41 < 0.62, risk ≤ 5 % (answer-check 1); asked amount, constraints year:2013\n',
    );
    expect(out).not.toContain('  Relevant:');
    expect(out).toContain('\n  Answer: related passages, not a confirmed answer\n');
  });

  it('escapes control characters in a hostile template name and method id', () => {
    const certificate: Certificate = structuredClone(read('golden-v1.1-bundle.json').certificate);
    certificate.claims[1]!.composition!.template = 'law.\u001b[31msanction';
    certificate.claims[1]!.relevance!.method.id = 'lexical\u202e-v3';
    const out = renderInspection(certificate, undefined, plain, 120);
    expect(out).not.toContain('\u001b');
    expect(out).not.toContain('\u202e');
  });
});
