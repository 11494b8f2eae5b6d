/** Test helpers: the IngestError code an action throws (anything else is rethrown), or undefined. */
import { type IngestErrorCode, isIngestError } from '../src/ingest/errors.js';

export function ingestCodeOf(action: () => unknown): IngestErrorCode | undefined {
  try {
    action();
  } catch (error) {
    if (isIngestError(error)) return error.code;
    throw error;
  }
  return undefined;
}

export async function ingestCodeOfAsync(
  action: () => Promise<unknown>,
): Promise<IngestErrorCode | undefined> {
  try {
    await action();
  } catch (error) {
    if (isIngestError(error)) return error.code;
    throw error;
  }
  return undefined;
}
