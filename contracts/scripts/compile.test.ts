import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { documentRegistryAbi } from '../src/document-registry.generated.js';
import { ARTIFACT_FILE, buildArtifact } from './compile.js';

describe('DocumentRegistry artifact', () => {
  test('the committed artifact is what solc-js builds from DocumentRegistry.sol (run `npm run build:contract`)', () => {
    expect(readFileSync(ARTIFACT_FILE, 'utf8')).toBe(buildArtifact());
  });

  test('the ABI lists the registry functions, the RootAnchored event and the custom errors', () => {
    const signature = (item: (typeof documentRegistryAbi)[number]) =>
      `${item.type} ${item.name}(${item.inputs.map((input) => input.type).join(',')})`;
    expect(documentRegistryAbi.map(signature).sort()).toEqual(
      [
        'function anchorRoot(bytes32,string)',
        'function verifyRoot(bytes32)',
        'function getRootCount()',
        'function leafHash(bytes32)',
        'function verifyInclusion(bytes32,uint256,uint256,bytes32[],bytes32)',
        'function verifyAnchoredDocument(bytes32,uint256,uint256,bytes32[],bytes32)',
        'event RootAnchored(bytes32,string,uint256,address)',
        'error RootAlreadyAnchored(bytes32,uint256)',
        'error EmptyRoot()',
        'error HashFailed()',
      ].sort(),
    );
    const event = documentRegistryAbi.find((item) => item.type === 'event' && item.name === 'RootAnchored');
    expect(
      event && 'inputs' in event ? event.inputs.map((input) => [input.name, input.indexed]) : [],
    ).toEqual([
      ['root', true],
      ['id', false],
      ['timestamp', false],
      ['registeredBy', true],
    ]);
    const outputs = (name: string) => {
      const fn = documentRegistryAbi.find((item) => item.type === 'function' && item.name === name);
      return fn && 'outputs' in fn ? fn.outputs.map((output) => output.type) : [];
    };
    expect(outputs('verifyRoot')).toEqual(['bool', 'uint256', 'string']);
    expect(outputs('verifyAnchoredDocument')).toEqual(['bool', 'bool', 'uint256']);
    expect(outputs('verifyInclusion')).toEqual(['bool']);
  });
});
