/**
 * Who the client is, behind reverse proxies (docs/configuration.md, `SAKSI_TRUST_PROXY`). Without a
 * trusted proxy the TCP peer is the client and `X-Forwarded-For` and `Forwarded` are ignored: anyone
 * can write them. With one, the configured header is read from the right, one hop at a time, only as
 * far as the hops a trusted proxy added: each proxy appends the address it received the request from,
 * so entries left of the last trusted hop are whatever the client sent, and are never believed.
 *
 * - hop count `n`: the `n` nearest hops are proxies (the TCP peer is the nearest); the client is the
 *   address the `n`th of them saw.
 * - addresses and CIDR ranges: walking from the TCP peer leftwards, every address inside them is a
 *   proxy; the client is the first address outside them.
 *
 * An entry that is not an IP address (`unknown`, an RFC 7239 obfuscated identifier, garbage) ends the
 * walk: the client is then the last address a trusted proxy vouched for.
 */
import { BlockList, isIP } from 'node:net';
import type { TrustProxyConfig } from '@saksi/engine';

export interface ProxyTrust {
  readonly header: 'x-forwarded-for' | 'forwarded';
  readonly hops?: number;
  readonly proxies?: BlockList;
}

/** Forwarded entries read at most, from the right; a longer header's left part is never reached. */
const MAX_ENTRIES = 64;

export function proxyTrust(config: TrustProxyConfig | null): ProxyTrust | null {
  if (config === null) return null;
  if ('hops' in config) return { header: config.header, hops: config.hops };
  const proxies = new BlockList();
  for (const range of config.addresses) {
    const [address = '', prefix = ''] = range.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    proxies.addSubnet(address, Number(prefix), family);
  }
  return { header: config.header, proxies };
}

/**
 * The client's address: the peer's without `trust`, otherwise the nearest untrusted hop of `header`
 * (the raw value of the header `trust` names, as received; several lines joined by commas).
 */
export function clientAddress(
  peer: string | undefined,
  header: string | undefined,
  trust: ProxyTrust | null,
): string {
  const socket = normalize(peer ?? '');
  // A peer that is not an address is a platform's proxy (fetch-handler.ts): with trusted hops, the
  // header it writes names the client; otherwise every client would share its name.
  const named = socket === null && peer !== undefined && peer !== '' && (trust?.hops ?? 0) > 0;
  if (socket === null && !named) return peer ? peer.slice(0, 100) : 'unknown';
  if (trust === null || header === undefined) return socket ?? peer!.slice(0, 100);
  const entries = trust.header === 'forwarded' ? forwardedFor(header) : forwardedList(header);
  // Nearest first: the peer, then the header from its right end.
  const hops = entries.slice(-MAX_ENTRIES).reverse();
  let client = socket ?? peer!.slice(0, 100);
  if (trust.hops !== undefined) {
    for (let index = 0; index < Math.min(trust.hops, hops.length); index += 1) {
      const next = normalize(hops[index]!);
      if (next === null) break;
      client = next;
    }
    return client;
  }
  for (const entry of hops) {
    if (!isTrusted(client, trust)) break;
    const next = normalize(entry);
    if (next === null) break;
    client = next;
  }
  return client;
}

/** Whether the TCP peer is a trusted proxy (so its `X-Forwarded-Proto` may be believed). */
export function peerIsTrusted(peer: string | undefined, trust: ProxyTrust | null): boolean {
  if (trust === null) return false;
  if (trust.hops !== undefined) return trust.hops > 0;
  const socket = normalize(peer ?? '');
  return socket !== null && isTrusted(socket, trust);
}

function isTrusted(address: string, trust: ProxyTrust): boolean {
  return trust.proxies?.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4') ?? false;
}

/** `X-Forwarded-For`: comma-separated addresses, the client's first. */
function forwardedList(value: string): string[] {
  return value.split(',').map((part) => part.trim());
}

/**
 * RFC 7239 §4: comma-separated elements of `;`-separated pairs; the `for` parameter of each (RFC 7239
 * §6: an IPv4 address, a bracketed IPv6 address, either with a port, `unknown` or an obfuscated
 * identifier). An element without `for` counts as an unknown hop.
 */
function forwardedFor(value: string): string[] {
  return splitOutsideQuotes(value, ',').map((element) => {
    for (const pair of splitOutsideQuotes(element, ';')) {
      const equals = pair.indexOf('=');
      if (equals < 0 || pair.slice(0, equals).trim().toLowerCase() !== 'for') continue;
      let node = pair.slice(equals + 1).trim();
      if (node.startsWith('"') && node.endsWith('"') && node.length >= 2) node = node.slice(1, -1);
      const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(node);
      if (bracketed) return bracketed[1]!;
      const withPort = /^([0-9.]+):\d+$/.exec(node);
      return withPort ? withPort[1]! : node;
    }
    return 'unknown';
  });
}

function splitOutsideQuotes(value: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (const character of value) {
    if (character === '"') quoted = !quoted;
    if (character === separator && !quoted) {
      parts.push(current);
      current = '';
    } else current += character;
  }
  parts.push(current);
  return parts;
}

/** An IP address in one spelling (IPv4-mapped IPv6 as IPv4, IPv6 in lower case), or null. */
function normalize(value: string): string | null {
  const address = value.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIP(mapped[1]!) === 4) return mapped[1]!;
  const family = isIP(address);
  if (family === 4) return address;
  if (family === 6) return address.toLowerCase();
  return null;
}
