/**
 * Trusted keys: the JSON a verifier pins (`saksi verify --trust keys.json`) and the server publishes
 * at `/.well-known/saksi-keys.json`.
 *
 * ```json
 * {
 *   "issuers": [{ "name": "saksi-demo", "key_id": "…", "public_key": "<base64 Ed25519>" }],
 *   "logs": [{ "origin": "saksi.local/log", "vkey": "saksi.local/log+abcd1234+AQ…" }],
 *   "witnesses": [{ "name": "witness-1", "vkey": "witness-1+01234567+BA…" }],
 *   "required_cosignatures": 1,
 *   "registries": [{ "chain_id": 31337, "contract": "0x5FbDB2315678afecb367f032d93F642f64180aa3" }]
 * }
 * ```
 *
 * `registries` (optional) pins the DocumentRegistry contracts whose anchors this verifier accepts;
 * without it any contract a certificate names is looked up (and could be a look-alike).
 */

import { fromBase64 } from './bytes.js';
import { issuerKeyId } from './certificate.js';
import { ProofError } from './errors.js';
import { parseJson } from './jcs.js';
import { checkObject, type Field } from './validate.js';
import type { TrustedIssuer, TrustedLog, TrustedRegistry, VerifyBundleOptions } from './verify-bundle.js';

export interface TrustedKeys {
  issuers: { name: string; key_id?: string; public_key: string }[];
  logs: TrustedLog[];
  witnesses?: { name: string; vkey: string }[];
  required_cosignatures?: number;
  registries?: TrustedRegistry[];
}

const name: Field = { kind: 'string', min: 1, max: 200 };
const vkey: Field = { kind: 'string', min: 1, max: 1_000 };
const trustedKeysSchema: Field = {
  kind: 'object',
  fields: {
    issuers: {
      kind: 'array',
      max: 100,
      items: {
        kind: 'object',
        fields: {
          name,
          key_id: { kind: 'hex', bytes: 8, optional: true },
          public_key: { kind: 'base64', bytes: 32 },
        },
      },
    },
    logs: { kind: 'array', max: 100, items: { kind: 'object', fields: { origin: name, vkey } } },
    witnesses: { kind: 'array', max: 100, optional: true, items: { kind: 'object', fields: { name, vkey } } },
    required_cosignatures: { kind: 'integer', min: 0, max: 100, optional: true },
    registries: {
      kind: 'array',
      max: 100,
      optional: true,
      items: {
        kind: 'object',
        fields: {
          chain_id: { kind: 'integer', min: 1 },
          contract: { kind: 'string', min: 42, max: 42, pattern: /^0x[0-9a-fA-F]{40}$/ },
        },
      },
    },
  },
};

/** Parses and checks a trusted-keys document (text or already parsed). Throws `KEY_INVALID`. */
export function parseTrustedKeys(input: string | unknown): TrustedKeys {
  const value = typeof input === 'string' ? parseJsonAsKeys(input) : input;
  checkObject(value, trustedKeysSchema, 'keys', 'KEY_INVALID');
  const keys = value as TrustedKeys;
  for (const issuer of keys.issuers) {
    if (issuer.key_id !== undefined && issuer.key_id !== issuerKeyId(fromBase64(issuer.public_key, 32))) {
      throw new ProofError('KEY_INVALID', `Issuer ${issuer.name}: key_id does not match its public key.`);
    }
  }
  return keys;
}

function parseJsonAsKeys(text: string): unknown {
  try {
    return parseJson(text, { maxLength: 1_000_000 });
  } catch (cause) {
    throw new ProofError('KEY_INVALID', 'The trusted keys file is not valid JSON.', { cause });
  }
}

/** The `verifyBundle` options a trusted-keys document stands for. */
export function trustOptions(
  keys: TrustedKeys,
): Pick<
  VerifyBundleOptions,
  'trustedIssuers' | 'trustedLogs' | 'witnesses' | 'requiredCosignatures' | 'trustedRegistries'
> {
  const trustedIssuers: TrustedIssuer[] = keys.issuers.map((issuer) => ({
    name: issuer.name,
    public_key: issuer.public_key,
  }));
  return {
    trustedIssuers,
    trustedLogs: keys.logs,
    witnesses: (keys.witnesses ?? []).map((witness) => witness.vkey),
    requiredCosignatures: keys.required_cosignatures ?? 0,
    ...(keys.registries ? { trustedRegistries: keys.registries } : {}),
  };
}
