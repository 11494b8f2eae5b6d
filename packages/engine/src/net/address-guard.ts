/**
 * Which addresses an outgoing request made on a tenant's behalf (a webhook delivery) may reach: only
 * public unicast ones. Everything the IANA special-purpose registries (RFC 6890 and its updates) mark
 * as not globally reachable is refused — loopback, the RFC 1918 private ranges, shared address space
 * (CGNAT), link-local, unique-local, multicast, unspecified, broadcast, documentation, benchmarking
 * and the other reserved blocks — and IPv6 forms that carry an IPv4 address (IPv4-mapped, NAT64,
 * 6to4) are judged by the IPv4 address they carry. See docs/api.md ("Webhooks").
 *
 * Hosts are checked after the WHATWG URL parser has normalised them, so every spelling of an IPv4
 * literal (`2130706433`, `0177.0.0.1`, `0x7f.1`, `127.1`) arrives here as dotted decimal and every
 * IPv6 literal in its canonical bracketed form. Names are resolved (every address, A and AAAA) and
 * refused when any of their addresses is; the caller then connects to exactly the addresses that were
 * checked ({@link pinnedLookup}), so a name that changes its answer in between cannot redirect it.
 */
import { lookup } from 'node:dns/promises';
import { isIPv4, isIPv6, type LookupFunction } from 'node:net';

/** What an address is; only `public` may be reached. */
export type AddressRange =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'unique-local'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'benchmarking'
  | 'reserved';

/** Words for messages: "… is a loopback address". */
export const ADDRESS_RANGE_DESCRIPTIONS: Record<Exclude<AddressRange, 'public'>, string> = {
  unspecified: 'an unspecified address (0.0.0.0 or ::)',
  loopback: 'a loopback address (this machine)',
  private: 'a private-network address',
  shared: 'a carrier-grade NAT address (100.64.0.0/10)',
  'link-local': 'a link-local address (such as the cloud metadata service 169.254.169.254)',
  'unique-local': 'a unique-local IPv6 address (fc00::/7)',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  documentation: 'an address reserved for documentation',
  benchmarking: 'an address reserved for benchmarking',
  reserved: 'a reserved address',
};

type Ipv4Rule = readonly [network: string, prefix: number, range: AddressRange];

/** IANA IPv4 Special-Purpose Address Registry (RFC 6890 §2.2.2 and updates), plus multicast and 240/4. */
const IPV4_RULES: readonly Ipv4Rule[] = [
  ['255.255.255.255', 32, 'broadcast'], // RFC 919 §7
  ['0.0.0.0', 8, 'unspecified'], // "this network", RFC 791 §3.2
  ['10.0.0.0', 8, 'private'], // RFC 1918
  ['100.64.0.0', 10, 'shared'], // RFC 6598
  ['127.0.0.0', 8, 'loopback'], // RFC 1122 §3.2.1.3
  ['169.254.0.0', 16, 'link-local'], // RFC 3927
  ['172.16.0.0', 12, 'private'], // RFC 1918
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments, RFC 6890 §2.1
  ['192.0.2.0', 24, 'documentation'], // TEST-NET-1, RFC 5737
  ['192.88.99.0', 24, 'reserved'], // former 6to4 relay anycast, RFC 7526
  ['192.168.0.0', 16, 'private'], // RFC 1918
  ['198.18.0.0', 15, 'benchmarking'], // RFC 2544
  ['198.51.100.0', 24, 'documentation'], // TEST-NET-2, RFC 5737
  ['203.0.113.0', 24, 'documentation'], // TEST-NET-3, RFC 5737
  ['224.0.0.0', 4, 'multicast'], // RFC 5771
  ['240.0.0.0', 4, 'reserved'], // RFC 1112 §4
];

function ipv4ToNumber(address: string): number {
  return address.split('.').reduce((value, part) => value * 256 + Number(part), 0);
}

const IPV4_TABLE = IPV4_RULES.map(([network, prefix, range]) => ({
  start: ipv4ToNumber(network),
  size: 2 ** (32 - prefix),
  range,
}));

function classifyIpv4Number(value: number): AddressRange {
  for (const rule of IPV4_TABLE) if (value >= rule.start && value < rule.start + rule.size) return rule.range;
  return 'public';
}

/** The eight 16-bit groups of an IPv6 address (with an optional trailing dotted IPv4), or null. */
function ipv6Groups(address: string): number[] | null {
  if (!isIPv6(address)) return null;
  let text = address.replace(/%.*$/, '').toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (dotted) {
    const value = ipv4ToNumber(dotted);
    text = `${text.slice(0, -dotted.length)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) =>
    part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  const zeros = 8 - front.length - back.length;
  if (tail === undefined ? zeros !== 0 : zeros < 0) return null;
  return [...front, ...new Array<number>(zeros).fill(0), ...back];
}

function embeddedIpv4(high: number, low: number): number {
  return high * 0x10000 + low;
}

function classifyIpv6Groups(groups: readonly number[]): AddressRange {
  const g = (index: number) => groups[index] ?? 0;
  const zeroUpTo = (count: number) => groups.slice(0, count).every((group) => group === 0);
  if (zeroUpTo(8)) return 'unspecified'; // ::/128, RFC 4291 §2.5.2
  if (zeroUpTo(7) && g(7) === 1) return 'loopback'; // ::1/128, RFC 4291 §2.5.3
  // IPv4-mapped ::ffff:0:0/96 (RFC 4291 §2.5.5.2) and IPv4-translated ::ffff:0:0:0/96 (RFC 2765):
  // the socket reaches the IPv4 address they carry.
  if (zeroUpTo(5) && g(5) === 0xffff) return classifyIpv4Number(embeddedIpv4(g(6), g(7)));
  if (zeroUpTo(4) && g(4) === 0xffff && g(5) === 0) return classifyIpv4Number(embeddedIpv4(g(6), g(7)));
  // IPv4-compatible ::/96 (deprecated, RFC 4291 §2.5.5.1).
  if (zeroUpTo(6)) return 'reserved';
  // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052 §2.1) carries the IPv4 address in its last 32 bits.
  if (g(0) === 0x64 && g(1) === 0xff9b && groups.slice(2, 6).every((group) => group === 0))
    return classifyIpv4Number(embeddedIpv4(g(6), g(7)));
  if (g(0) === 0x64 && g(1) === 0xff9b && g(2) === 1) return 'private'; // local-use NAT64, RFC 8215
  // 6to4 2002::/16 (RFC 3056 §2) carries the IPv4 address in bits 16–47.
  if (g(0) === 0x2002) return classifyIpv4Number(embeddedIpv4(g(1), g(2)));
  if (g(0) === 0x2001 && g(1) === 0x0db8) return 'documentation'; // RFC 3849
  if (g(0) === 0x3fff && g(1) < 0x1000) return 'documentation'; // 3fff::/20, RFC 9637
  if (g(0) === 0x2001 && g(1) < 0x0200) return 'reserved'; // 2001::/23 IETF protocol assignments (Teredo, ORCHID…)
  if (g(0) === 0x0100 && g(1) === 0 && g(2) === 0 && g(3) === 0) return 'reserved'; // discard-only, RFC 6666
  if (g(0) === 0x5f00) return 'reserved'; // SRv6 SIDs, RFC 9602
  if ((g(0) & 0xfe00) === 0xfc00) return 'unique-local'; // fc00::/7, RFC 4193
  if ((g(0) & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10, RFC 4291 §2.5.6
  if ((g(0) & 0xffc0) === 0xfec0) return 'private'; // site-local fec0::/10, deprecated by RFC 3879
  if ((g(0) & 0xff00) === 0xff00) return 'multicast'; // ff00::/8, RFC 4291 §2.7
  // Only 2000::/3 is allocated as global unicast (RFC 4291 §2.4); the rest is reserved.
  if ((g(0) & 0xe000) !== 0x2000) return 'reserved';
  return 'public';
}

/**
 * The range of an IP address in canonical text (dotted-decimal IPv4 or IPv6, brackets and a zone
 * allowed), or null when `address` is not one.
 */
export function classifyAddress(address: string): AddressRange | null {
  const text = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIPv4(text)) return classifyIpv4Number(ipv4ToNumber(text));
  const groups = ipv6Groups(text);
  return groups ? classifyIpv6Groups(groups) : null;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address of a host name (A and AAAA); rejects when the name does not resolve. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The operating system's resolver (`getaddrinfo`, as every Node socket uses), every address. */
export const systemResolver: HostResolver = async (hostname) => {
  const addresses = await lookup(hostname, { all: true });
  return addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

export type HostCheck =
  /** Connect to these addresses, and only these. */
  | { ok: true; addresses: ResolvedAddress[] }
  /** `localhost` or a name under it (RFC 6761 §6.3): refused without asking a resolver. */
  | { ok: false; reason: 'localhost' }
  /** An IP literal outside the public ranges. */
  | { ok: false; reason: 'literal'; range: Exclude<AddressRange, 'public'> }
  /** A name with at least one address outside the public ranges. */
  | { ok: false; reason: 'resolved'; range: Exclude<AddressRange, 'public'> }
  /** The name did not resolve (or not in time), or the resolver gave something that is not an address. */
  | { ok: false; reason: 'unresolved' };

export interface CheckHostOptions {
  /** Default: {@link systemResolver}. */
  resolve?: HostResolver;
  /** Skip the range checks (self-hosted setups whose receivers are on the local network). */
  allowPrivate?: boolean;
  /** Longest wait for the resolver, in milliseconds (default 5,000). */
  timeoutMs?: number;
}

const DEFAULT_RESOLVE_TIMEOUT_MS = 5_000;

function isLocalhost(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost');
}

async function resolveWithin(
  resolve: HostResolver,
  hostname: string,
  timeoutMs: number,
): Promise<ResolvedAddress[] | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((done) => {
    timer = setTimeout(() => done(null), timeoutMs);
  });
  try {
    return await Promise.race([resolve(hostname).catch(() => null), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Checks the host of a parsed URL (`url.hostname`: a name, dotted IPv4, or bracketed IPv6) and
 * returns the addresses a request may connect to. A name is resolved and refused when ANY of its
 * addresses is not public: a receiver cannot hide a private address among public ones.
 */
export async function checkHost(hostname: string, options: CheckHostOptions = {}): Promise<HostCheck> {
  const allowPrivate = options.allowPrivate ?? false;
  // A fully qualified name may end in a dot ("localhost."); it names the same host.
  const host = (hostname.endsWith('.') ? hostname.slice(0, -1) : hostname).toLowerCase();
  const literal = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const literalRange = classifyAddress(literal);
  if (literalRange !== null) {
    if (literalRange !== 'public' && !allowPrivate)
      return { ok: false, reason: 'literal', range: literalRange };
    return { ok: true, addresses: [{ address: literal, family: isIPv4(literal) ? 4 : 6 }] };
  }
  if (isLocalhost(host) && !allowPrivate) return { ok: false, reason: 'localhost' };
  const resolved = await resolveWithin(
    options.resolve ?? systemResolver,
    host,
    options.timeoutMs ?? DEFAULT_RESOLVE_TIMEOUT_MS,
  );
  if (!resolved || resolved.length === 0) return { ok: false, reason: 'unresolved' };
  const addresses: ResolvedAddress[] = [];
  for (const { address } of resolved) {
    const range = classifyAddress(address);
    if (range === null) return { ok: false, reason: 'unresolved' };
    if (range !== 'public' && !allowPrivate) return { ok: false, reason: 'resolved', range };
    const bare = address.replace(/%.*$/, '');
    addresses.push({ address: bare, family: isIPv4(bare) ? 4 : 6 });
  }
  return { ok: true, addresses };
}

/**
 * A `lookup` for `http.request` / `net.connect` that answers every query with `addresses` (the ones
 * {@link checkHost} approved), so the connection goes where the check looked and nowhere else.
 */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const wanted = family === 4 || family === 6 ? family : undefined;
    const usable = addresses.filter((entry) => wanted === undefined || entry.family === wanted);
    const first = usable[0];
    if (!first) {
      const error: NodeJS.ErrnoException = new Error('No approved address for this host.');
      error.code = 'ENOTFOUND';
      callback(error, '', 0);
      return;
    }
    if (options.all)
      callback(
        null,
        usable.map((entry) => ({ ...entry })),
      );
    else callback(null, first.address, first.family);
  };
}
