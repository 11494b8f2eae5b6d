/** The DocumentRegistry contract as TypeScript: typed ABI and creation bytecode (see DocumentRegistry.sol). */

export {
  ANVIL_DEFAULT_CHAIN_ID,
  ANVIL_DEFAULT_PRIVATE_KEY,
  AnvilError,
  type AnvilErrorCode,
  type AnvilHandle,
  type AnvilOptions,
  anvilBinary,
  startAnvil,
} from './anvil.js';
export {
  documentRegistryAbi,
  documentRegistryBytecode,
  documentRegistryCompiler,
  documentRegistrySourceSha256,
} from './document-registry.generated.js';
export {
  CHAIN_PRESETS,
  type ChainPreset,
  type ChainPresetName,
  createRegistryLookup,
  type DeployedRegistry,
  type DeployRegistryOptions,
  deployDocumentRegistry,
  explorerAddressUrl,
  explorerTxUrl,
  REGISTRY_LOOKUP_TIMEOUT_MS,
  RegistryError,
  type RegistryErrorCode,
  type RegistryLookupOptions,
  registryChain,
} from './registry.js';
