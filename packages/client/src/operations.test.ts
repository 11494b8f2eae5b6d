/**
 * Every request the client makes is an operation of the API's OpenAPI document, and each method returns
 * what that operation documents. The document reaches the client as wire.ts (generated from the server's
 * route list; the server's api-spec/typescript.test.ts fails while it is stale), so checking against
 * wire.ts is checking against the routes.
 */
import { describe, expect, it } from 'vitest';
import type { AdminApi } from './admin.js';
import { SaksiClient } from './client.js';
import type { Bundle, OperationId, RequestBody, ResponseBody } from './types.js';
import { OPERATIONS } from './wire.js';

/** How a method of the client uses the API. */
interface Call {
  /** The operations it calls, in order. */
  calls: readonly OperationId[];
  /** The operation whose successful response it returns (the last call); absent: not a JSON body. */
  returns?: OperationId;
  /** The field of that response it returns, when not the whole body. */
  field?: string;
  /** The media type of that response, when not JSON. */
  media?: string;
  /** Its input is sent as the JSON request body of `returns`. */
  body?: true;
  run: (client: SaksiClient) => Promise<unknown>;
}

interface AdminCall extends Omit<Call, 'run'> {
  run: (admin: AdminApi) => Promise<unknown>;
}

const UPLOAD_URL = 'https://saksi.test/api/v1/uploads/upl_1/content?token=t';
const bundle: Bundle = {
  certificate: { schema: 'saksi.certificate/v1.1', certificate_id: 'c', issued_at: '2026-01-01T00:00:00Z' },
  signature: 's',
  log: { origin: 'o', leaf_index: 0, inclusion_proof: [], checkpoint: 'c', cosignatures: [] },
  chunks: [],
};

const CALLS = {
  health: { calls: ['getHealth'], returns: 'getHealth', run: (client) => client.health() },
  openApi: { calls: ['getOpenApi'], returns: 'getOpenApi', run: (client) => client.openApi() },
  workspace: { calls: ['getWorkspace'], returns: 'getWorkspace', run: (client) => client.workspace() },
  createWorkspace: {
    calls: ['createWorkspace'],
    returns: 'createWorkspace',
    body: true,
    run: (client) => client.createWorkspace({ name: 'w' }),
  },
  listKeys: { calls: ['listKeys'], returns: 'listKeys', field: 'items', run: (client) => client.listKeys() },
  createKey: {
    calls: ['createKey'],
    returns: 'createKey',
    body: true,
    run: (client) => client.createKey({ name: 'k', scopes: ['read'] }),
  },
  revokeKey: {
    calls: ['revokeKey'],
    returns: 'revokeKey',
    field: 'record',
    run: (client) => client.revokeKey('key_1'),
  },
  listCollections: {
    calls: ['listCollections'],
    returns: 'listCollections',
    field: 'items',
    run: (client) => client.listCollections(),
  },
  createCollection: {
    calls: ['createCollection'],
    returns: 'createCollection',
    field: 'collection',
    body: true,
    run: (client) => client.createCollection({ name: 'c', language: 'id' }),
  },
  getCollectionGlossary: {
    calls: ['getCollectionGlossary'],
    returns: 'getCollectionGlossary',
    run: (client) => client.getCollectionGlossary('c'),
  },
  putCollectionGlossary: {
    calls: ['putCollectionGlossary'],
    returns: 'putCollectionGlossary',
    run: (client) => client.putCollectionGlossary('c', { format: 'saksi-glossary', version: 1 }),
  },
  deleteCollectionGlossary: {
    calls: ['deleteCollectionGlossary'],
    run: (client) => client.deleteCollectionGlossary('c'),
  },
  getCollectionPacks: {
    calls: ['getCollectionPacks'],
    returns: 'getCollectionPacks',
    run: (client) => client.getCollectionPacks('c'),
  },
  putCollectionPacks: {
    calls: ['putCollectionPacks'],
    returns: 'putCollectionPacks',
    run: (client) => client.putCollectionPacks('c', ['legislation']),
  },
  getCollectionCalibration: {
    calls: ['getCollectionCalibration'],
    returns: 'getCollectionCalibration',
    run: (client) => client.getCollectionCalibration('c'),
  },
  putCollectionCalibration: {
    calls: ['putCollectionCalibration'],
    returns: 'putCollectionCalibration',
    run: (client) => client.putCollectionCalibration('c', [{ question: 'q', must_mention: ['p'] }]),
  },
  deleteCollectionCalibration: {
    calls: ['deleteCollectionCalibration'],
    run: (client) => client.deleteCollectionCalibration('c'),
  },
  uploadDocument: {
    calls: ['uploadDocument'],
    returns: 'uploadDocument',
    run: (client) =>
      client.uploadDocument({
        collection: 'c',
        file: new Uint8Array([1]),
        filename: 'a.txt',
        fiscal_year: 2024,
      }),
  },
  listDocuments: {
    calls: ['listDocuments'],
    returns: 'listDocuments',
    run: (client) => client.listDocuments({ status: 'READY', fiscal_year: 2024, limit: 5 }),
  },
  getDocument: {
    calls: ['getDocument'],
    returns: 'getDocument',
    run: (client) => client.getDocument('doc_1'),
  },
  waitForDocument: {
    calls: ['getDocument'],
    returns: 'getDocument',
    run: (client) => client.waitForDocument('doc_1'),
  },
  downloadDocument: { calls: ['getDocumentFile'], run: (client) => client.downloadDocument('doc_1') },
  listChunks: {
    calls: ['listChunks'],
    returns: 'listChunks',
    run: (client) => client.listChunks('doc_1', { limit: 2 }),
  },
  deleteDocument: { calls: ['deleteDocument'], run: (client) => client.deleteDocument('doc_1') },
  listJobs: {
    calls: ['listJobs'],
    returns: 'listJobs',
    run: (client) => client.listJobs({ status: 'FAILED' }),
  },
  getJob: { calls: ['getJob'], returns: 'getJob', run: (client) => client.getJob('job_1') },
  createUpload: {
    calls: ['createUpload'],
    returns: 'createUpload',
    body: true,
    run: (client) => client.createUpload({ collection: 'c', filename: 'a.pdf', size: 1 }),
  },
  putUploadContent: {
    calls: ['putUploadContent'],
    returns: 'putUploadContent',
    run: (client) => client.putUploadContent(UPLOAD_URL, new Uint8Array([1])),
  },
  processUpload: {
    calls: ['processUpload'],
    returns: 'processUpload',
    run: (client) => client.processUpload('upl_1'),
  },
  uploadLarge: {
    calls: ['createUpload', 'putUploadContent', 'processUpload'],
    returns: 'processUpload',
    run: (client) => client.uploadLarge({ collection: 'c', filename: 'a.pdf', file: new Uint8Array([1]) }),
  },
  createWebhook: {
    calls: ['createWebhook'],
    returns: 'createWebhook',
    body: true,
    run: (client) => client.createWebhook({ url: 'https://example.org/hook' }),
  },
  listWebhooks: {
    calls: ['listWebhooks'],
    returns: 'listWebhooks',
    field: 'items',
    run: (client) => client.listWebhooks(),
  },
  deleteWebhook: { calls: ['deleteWebhook'], run: (client) => client.deleteWebhook('whk_1') },
  listDeliveries: {
    calls: ['listDeliveries'],
    returns: 'listDeliveries',
    field: 'items',
    run: (client) => client.listDeliveries('whk_1'),
  },
  query: {
    calls: ['query'],
    returns: 'query',
    body: true,
    run: (client) => client.query({ collection: 'c', question: 'q' }),
  },
  chat: {
    calls: ['chat'],
    returns: 'chat',
    body: true,
    run: (client) => client.chat({ collection: 'c', question: 'q' }),
  },
  getSession: { calls: ['getSession'], returns: 'getSession', run: (client) => client.getSession('ses_1') },
  deleteSession: { calls: ['deleteSession'], run: (client) => client.deleteSession('ses_1') },
  getCertificate: {
    calls: ['getCertificate'],
    returns: 'getCertificate',
    run: (client) => client.getCertificate('cert_1'),
  },
  getCertificateCredential: {
    calls: ['getCertificate'],
    returns: 'getCertificate',
    media: 'application/vc',
    run: (client) => client.getCertificateCredential('cert_1'),
  },
  giveFeedback: {
    calls: ['giveFeedback'],
    returns: 'giveFeedback',
    body: true,
    run: (client) => client.giveFeedback({ certificate_id: 'c', rating: 'up' }),
  },
  verify: { calls: ['verify'], returns: 'verify', body: true, run: (client) => client.verify(bundle) },
  checkpoint: { calls: ['getCheckpoint'], returns: 'getCheckpoint', run: (client) => client.checkpoint() },
  chatStream: {
    calls: ['chat'],
    run: async (client) => {
      // The recording server answers JSON, not events: the stream fails once the request is made.
      for await (const _ of client.chatStream({ collection: 'c', question: 'q' })) break;
    },
  },
  // The keys as sent (the reader parses them with @saksi/proof before trusting them): not typed here.
  trustedKeys: { calls: ['getTrustedKeys'], run: (client) => client.trustedKeys() },
  anchors: { calls: ['getAnchorStatus'], returns: 'getAnchorStatus', run: (client) => client.anchors() },
  consistencyProof: {
    calls: ['getConsistencyProof'],
    returns: 'getConsistencyProof',
    run: (client) => client.consistencyProof(1, 2),
  },
  // No request of their own: a copy with other options, and the admin routes (ADMIN_CALLS).
  with: { calls: [], run: async (client) => client.with({}) },
  admin: { calls: [], run: async (client) => client.admin },
} as const satisfies Record<string, Call>;

/** The admin session's methods (`client.admin`), listed like {@link CALLS}. */
const ADMIN_CALLS = {
  login: { calls: ['adminLogin'], returns: 'adminLogin', run: (admin) => admin.login('a@b.c', 'p') },
  session: { calls: ['adminMe'], returns: 'adminMe', run: (admin) => admin.session() },
  logout: { calls: ['adminLogout'], run: (admin) => admin.logout() },
  listDocuments: {
    calls: ['adminListDocuments'],
    returns: 'adminListDocuments',
    run: (admin) => admin.listDocuments({ fiscal_year: 2024 }),
  },
  setArchived: {
    calls: ['adminArchiveDocument'],
    returns: 'adminArchiveDocument',
    field: 'document',
    run: (admin) => admin.setArchived('doc_1', true),
  },
  deleteDocument: { calls: ['adminDeleteDocument'], run: (admin) => admin.deleteDocument('doc_1') },
  uploadDocument: {
    calls: ['adminUploadDocument'],
    returns: 'adminUploadDocument',
    run: (admin) => admin.uploadDocument({ file: new Blob(['x']), filename: 'a.txt', collection: 'c' }),
  },
  listWorkspaces: {
    calls: ['adminListWorkspaces'],
    returns: 'adminListWorkspaces',
    field: 'items',
    run: (admin) => admin.listWorkspaces(),
  },
  // The reply's workspace, with the counts a new one has (none): not the documented body as is.
  createWorkspace: {
    calls: ['adminCreateWorkspace'],
    run: (admin) => admin.createWorkspace('w'),
  },
  listKeys: {
    calls: ['adminListKeys'],
    returns: 'adminListKeys',
    field: 'items',
    run: (admin) => admin.listKeys('ws_1'),
  },
  createKey: {
    calls: ['adminCreateKey'],
    returns: 'adminCreateKey',
    run: (admin) => admin.createKey('ws_1', { name: 'k', scopes: ['read'] }),
  },
  revokeKey: {
    calls: ['adminRevokeKey'],
    returns: 'adminRevokeKey',
    field: 'record',
    run: (admin) => admin.revokeKey('ws_1', 'key_1'),
  },
  usage: {
    calls: ['adminUsage'],
    returns: 'adminUsage',
    run: (admin) => admin.usage({ days: 7, workspace: 'default' }),
  },
  // A URL for the browser to follow, not a request.
  usageCsvUrl: {
    calls: [],
    run: async (admin) => admin.usageCsvUrl({ days: 7, workspace: 'default' }, 'days'),
  },
} as const satisfies Record<string, AdminCall>;

type Methods = keyof typeof CALLS;

// Compile-time: what each method returns is what its operation documents, and what it takes is a
// request body the operation accepts. `npm run typecheck` fails on a method that drifts.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Returned<M extends Methods> = SaksiClient[M] extends (...args: never[]) => Promise<infer R> ? R : never;
type Documented<C> = C extends { returns: infer Id extends OperationId }
  ? ResponseBody<
      Id,
      C extends { media: infer Media extends string } ? Media : 'application/json'
    > extends infer Body
    ? C extends { field: infer Field extends keyof Body }
      ? Body[Field]
      : Body
    : never
  : never;
type Input<M extends Methods> = SaksiClient[M] extends (input: infer I, ...rest: never[]) => unknown
  ? I
  : never;
type Accepted<M extends Methods> = (typeof CALLS)[M] extends {
  body: true;
  returns: infer Id extends OperationId;
}
  ? [Input<M>] extends [RequestBody<Id>]
    ? true
    : false
  : true;

/** The methods that return a JSON response body (not the deletes, nor the download's bytes). */
type Typed = { [M in Methods]: (typeof CALLS)[M] extends { returns: OperationId } ? M : never }[Methods];
const returnsAsDocumented: { [M in Typed]: true } = null as unknown as {
  [M in Typed]: Same<Returned<M>, Documented<(typeof CALLS)[M]>>;
};
const takesDocumentedBodies: { [M in Methods]: true } = null as unknown as { [M in Methods]: Accepted<M> };
type AdminMethods = keyof typeof ADMIN_CALLS;
type AdminReturned<M extends AdminMethods> = AdminApi[M] extends (...args: never[]) => Promise<infer R>
  ? R
  : never;
type AdminTyped = {
  [M in AdminMethods]: (typeof ADMIN_CALLS)[M] extends { returns: OperationId } ? M : never;
}[AdminMethods];
const adminReturnsAsDocumented: { [M in AdminTyped]: true } = null as unknown as {
  [M in AdminTyped]: Same<AdminReturned<M>, Documented<(typeof ADMIN_CALLS)[M]>>;
};
void adminReturnsAsDocumented;
void returnsAsDocumented;
void takesDocumentedBodies;

/** The operations whose method and path match a request. */
function operationsOf(method: string, pathname: string): OperationId[] {
  return (Object.keys(OPERATIONS) as OperationId[]).filter((id) => {
    const operation = OPERATIONS[id];
    const pattern = new RegExp(`^${operation.path.replace(/\{[^}]+\}/g, '[^/]+').replaceAll('.', '\\.')}$`);
    return operation.method === method && pattern.test(pathname);
  });
}

/** A client whose requests are recorded and answered with a body that serves every method. */
function recordingClient(): { client: SaksiClient; requests: { method: string; pathname: string }[] } {
  const requests: { method: string; pathname: string }[] = [];
  const client = new SaksiClient({
    baseUrl: 'https://saksi.test',
    apiKey: `saksi_${'A'.repeat(43)}`,
    fetch: async (input, init) => {
      const url = new URL(String(input));
      requests.push({ method: init?.method ?? 'GET', pathname: url.pathname });
      if (url.pathname.endsWith('/file')) {
        // The SHA-256 of no bytes.
        const sha256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
        return new Response(new Uint8Array(0), { headers: { 'x-saksi-sha256': sha256 } });
      }
      return Response.json({ items: [], status: 'READY', upload: { id: 'upl_1' }, upload_url: UPLOAD_URL });
    },
  });
  return { client, requests };
}

describe('the requests of SaksiClient', () => {
  it('are listed for every public method', () => {
    const methods = Object.getOwnPropertyNames(SaksiClient.prototype).filter(
      (name) => name !== 'constructor',
    );
    expect(
      methods.filter((name) => !(name in CALLS)),
      'a client method missing from CALLS in operations.test.ts: add it with the operations it calls',
    ).toEqual([]);
    expect(Object.keys(CALLS).filter((name) => !methods.includes(name))).toEqual([]);
    const adminMethods = Object.getOwnPropertyNames(
      Object.getPrototypeOf(new SaksiClient({ baseUrl: 'https://saksi.test' }).admin),
    ).filter((name) => name !== 'constructor');
    expect(
      adminMethods.filter((name) => !(name in ADMIN_CALLS)),
      'an admin method missing from ADMIN_CALLS in operations.test.ts: add it with the operations it calls',
    ).toEqual([]);
    expect(Object.keys(ADMIN_CALLS).filter((name) => !adminMethods.includes(name))).toEqual([]);
  });

  for (const [method, call] of [
    ...(Object.entries(CALLS) as [string, Call][]),
    ...Object.entries(ADMIN_CALLS).map(([name, adminCall]): [string, Call] => [
      `admin.${name}`,
      { ...adminCall, run: (client) => adminCall.run(client.admin) },
    ]),
  ]) {
    it(`${method} calls ${call.calls.join(', ')}`, async () => {
      const { client, requests } = recordingClient();
      await call.run(client).catch(() => undefined);
      expect(
        requests.map((request) => {
          const matches = operationsOf(request.method, request.pathname);
          return matches.length > 0 ? matches : [`${request.method} ${request.pathname} (no such operation)`];
        }),
      ).toEqual(call.calls.map((id) => expect.arrayContaining([id])));
    });
  }
});
