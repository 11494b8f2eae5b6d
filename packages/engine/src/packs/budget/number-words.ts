/** The Indonesian number-words reader lives in @saksi/proof: verifiers recompute spelled amounts with it. */
export { parseNumberWords } from '@saksi/proof';
