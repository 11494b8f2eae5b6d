import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isEngineError, loadConfig } from '@saksi/engine';
import { utf8Encode } from '@saksi/proof';
import { bearer, testApiKey } from '@saksi/test-support/api-key';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { isCorsPath, originAllowed } from './cors.js';

const ALLOWED = 'https://docs.example.org';
const OTHER = 'https://evil.example';

describe('SAKSI_ALLOWED_ORIGINS', () => {
  it('parses a comma-separated list of origins, default none', () => {
    expect(loadConfig({}, '/tmp').allowedOrigins).toEqual([]);
    expect(
      loadConfig(
        { SAKSI_ALLOWED_ORIGINS: ' https://a.example , http://127.0.0.1:8080,https://a.example' },
        '/tmp',
      ).allowedOrigins,
    ).toEqual(['https://a.example', 'http://127.0.0.1:8080']);
    expect(loadConfig({ SAKSI_ALLOWED_ORIGINS: '*' }, '/tmp').allowedOrigins).toEqual(['*']);
  });

  it.each(['docs.example.org', 'https://a.example/path', 'ftp://'])(
    'rejects %s with CONFIG_INVALID',
    (value) => {
      let code = '';
      try {
        loadConfig({ SAKSI_ALLOWED_ORIGINS: value }, '/tmp');
      } catch (error) {
        if (isEngineError(error)) code = error.code;
      }
      expect(code).toBe('CONFIG_INVALID');
    },
  );

  it('covers the public read/ask routes only', () => {
    for (const route of [
      '/api/v1/chat',
      '/api/v1/query',
      '/api/v1/verify',
      '/api/v1/certificates/abc',
      '/.well-known/saksi-keys.json',
    ])
      expect([route, isCorsPath(route)]).toEqual([route, true]);
    for (const route of ['/api/v1/documents', '/api/v1/admin/collections', '/api/v1/collections', '/'])
      expect([route, isCorsPath(route)]).toEqual([route, false]);
    expect(originAllowed(ALLOWED, [ALLOWED])).toBe(true);
    expect(originAllowed(`${ALLOWED}.evil.example`, [ALLOWED])).toBe(false);
    expect(originAllowed(OTHER, ['*'])).toBe(true);
  });
});

describe('CORS middleware (real engine)', () => {
  let test: TestEngine;
  let app: Hono;
  let webRoot: string;
  let auth: Record<string, string>;
  beforeAll(async () => {
    test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none', SAKSI_ALLOWED_ORIGINS: ALLOWED } });
    await test.engine.ingest(
      'docs',
      {
        bytes: utf8Encode('# Store\n\nThe store holds the whole state tree of your application.\n'),
        filename: 'store.md',
      },
      { language: 'en' },
    );
    // The widget's chat is anonymous: it works on public collections.
    await test.engine.collections.configure('docs', { public: true });
    auth = bearer(await testApiKey(test.engine, ['read']));
    webRoot = mkdtempSync(path.join(tmpdir(), 'saksi-cors-web-'));
    writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>x</title>');
    writeFileSync(path.join(webRoot, 'widget.js'), '(()=>{})();');
    writeFileSync(path.join(webRoot, 'widget-verify.js'), '(()=>{})();');
    app = createApp(test.engine, { webRoot });
  });
  afterAll(async () => {
    await test?.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  const preflight = (route: string, origin: string) =>
    app.request(route, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });

  it('answers a preflight from an allowed origin with 204 and its exact origin', async () => {
    const response = await preflight('/api/v1/chat', ALLOWED);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(response.headers.get('vary')).toContain('Origin');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')).toBe(
      'content-type, accept, authorization, x-api-key',
    );
  });

  it('gives another origin no CORS header, on preflight and on the request itself', async () => {
    const response = await preflight('/api/v1/chat', OTHER);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const query = await app.request('/api/v1/query', {
      method: 'POST',
      headers: { ...auth, origin: OTHER, 'content-type': 'application/json' },
      body: JSON.stringify({ collection: 'docs', question: 'What does the store hold?' }),
    });
    expect(query.status).toBe(200);
    expect(query.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('adds the origin to actual responses of the covered routes (the chat stream included)', async () => {
    const chat = await app.request('/api/v1/chat', {
      method: 'POST',
      headers: { origin: ALLOWED, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ collection: 'docs', question: 'What does the store hold?' }),
    });
    expect(chat.status).toBe(200);
    expect(chat.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    const text = await chat.text();
    const id = /"certificate_id":"([^"]+)"/.exec(text)?.[1] ?? '';
    expect(id).not.toBe('');
    const bundle = await app.request(`/api/v1/certificates/${id}`, { headers: { origin: ALLOWED } });
    expect(bundle.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    const keys = await app.request('/.well-known/saksi-keys.json', { headers: { origin: ALLOWED } });
    expect(keys.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it('never opens the other API routes to another origin', async () => {
    for (const route of ['/api/v1/documents', '/api/v1/collections']) {
      const response = await preflight(route, ALLOWED);
      expect([route, response.headers.get('access-control-allow-origin')]).toEqual([route, null]);
      const get = await app.request(route, { headers: { origin: ALLOWED } });
      expect([route, get.headers.get('access-control-allow-origin')]).toEqual([route, null]);
    }
  });

  it('serves /widget.js and its verifier for any page, with a cache header', async () => {
    for (const script of ['/widget.js', '/widget-verify.js']) {
      const response = await app.request(script);
      expect(response.status).toBe(200);
      expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
      expect(response.headers.get('content-type')).toMatch(/javascript/);
    }
  });
});
