import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { parseIpAddress } from '../../../net/ip-address.ts';
import { isBlockedAddress } from './address-guard.ts';

export interface GuardOptions {
  /** host:port pairs that skip the address check (a local test page); empty in production. */
  allowHosts: readonly string[];
  maxBytes: number;
  maxRedirects: number;
}

/** Why a preview fetch was refused; the message is safe to return to the client. */
export class LinkPreviewError extends Error {}

export type Resolver = (
  hostname: string,
  options: { all: true; family?: number },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemResolver: Resolver = (hostname, options, callback) =>
  dnsLookup(hostname, options, callback);

/**
 * A socket lookup that resolves every address of the name and refuses them all if any one is not public. The socket
 * then connects to an address this check saw (never to a second answer), so DNS rebinding between check and use is
 * moot.
 */
export function createGuardedLookup(resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    const refuse = () =>
      callback(new LinkPreviewError(`the address of ${hostname} is not allowed`), '', 4);
    if (isLocalhostName(hostname)) return refuse();
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    resolve(hostname, { family, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      if (addresses.length === 0 || addresses.some((a) => isBlockedAddress(a.address)))
        return refuse();
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

const guardedLookup = createGuardedLookup();

function isLocalhostName(hostname: string): boolean {
  const lower = hostname.toLowerCase().replace(/\.+$/, '');
  return lower === 'localhost' || lower.endsWith('.localhost');
}

/**
 * For allowlisted hosts only: `*.localhost` names are loopback (RFC 6761) even where the system resolver does not
 * know them, so a test page can have a name with a top-level domain (the client only previews such names).
 */
const allowlistedLookup: LookupFunction = (hostname, options, callback) => {
  if (!isLocalhostName(hostname)) return dnsLookup(hostname, options, callback);
  const loopback = { address: '127.0.0.1', family: 4 };
  if (options.all) return callback(null, [loopback]);
  return callback(null, loopback.address, loopback.family);
};

function isAllowlisted(url: URL, allowHosts: readonly string[]): boolean {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allowHosts.includes(`${url.hostname}:${port}`) || allowHosts.includes(url.host);
}

/** Refuses a URL before connecting: scheme, credentials and literal IP hosts (which skip the lookup). */
export function assertFetchable(url: URL, allowHosts: readonly string[]): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new LinkPreviewError('only http and https URLs can be previewed');
  if (url.username || url.password)
    throw new LinkPreviewError('URLs with credentials cannot be previewed');
  if (isAllowlisted(url, allowHosts)) return;
  // Any spelling of an address literal (which the socket would use without a lookup) is judged here.
  const host = url.hostname;
  if (parseIpAddress(host) && isBlockedAddress(host))
    throw new LinkPreviewError(`the address ${host} is not allowed`);
}

function toHeaders(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(key, item);
  }
  return headers;
}

interface Hop {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function fetchOnce(url: URL, options: GuardOptions, signal: AbortSignal): Promise<Hop> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Hop>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'GET',
        signal,
        agent: false,
        lookup: isAllowlisted(url, options.allowHosts) ? allowlistedLookup : guardedLookup,
        headers: {
          'user-agent': 'Mozilla/5.0 (compatible; DaoHuuLinkPreview/1.0)',
          accept: 'text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.1',
          'accept-encoding': 'identity',
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          response.resume();
          resolve({ status, headers: response.headers, body: Buffer.alloc(0) });
          return;
        }
        // Only documents are parsed; for anything else (an image link) the type is all a preview needs.
        if (!/html|xml|json/i.test(response.headers['content-type'] ?? '')) {
          resolve({ status, headers: response.headers, body: Buffer.alloc(0) });
          request.destroy();
          return;
        }
        const declared = Number(response.headers['content-length'] ?? 0);
        if (declared > options.maxBytes) {
          request.destroy(new LinkPreviewError('the page is too large to preview'));
          return;
        }
        const chunks: Buffer[] = [];
        let total = 0;
        response.on('data', (chunk: Buffer) => {
          total += chunk.length;
          if (total > options.maxBytes)
            request.destroy(new LinkPreviewError('the page is too large to preview'));
          else chunks.push(chunk);
        });
        response.on('end', () =>
          resolve({ status, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/**
 * A `fetch(url)` for unfurl.js that follows redirects itself, re-checking every hop, and shares one deadline
 * (the signal) across the page and its oEmbed document.
 */
export function createGuardedFetch(
  options: GuardOptions,
  signal: AbortSignal,
): (url: string) => Promise<Response> {
  return async (input) => {
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      throw new LinkPreviewError('the URL is not valid');
    }
    for (let redirects = 0; ; redirects++) {
      assertFetchable(url, options.allowHosts);
      const hop = await fetchOnce(url, options, signal);
      const location = hop.headers.location;
      if (hop.status >= 300 && hop.status < 400 && location) {
        if (redirects >= options.maxRedirects) throw new LinkPreviewError('too many redirects');
        url = new URL(location, url);
        continue;
      }
      const status = hop.status >= 200 && hop.status <= 599 ? hop.status : 502;
      const noBody = status === 204 || status === 205 || status === 304;
      return new Response(noBody ? null : new Uint8Array(hop.body), {
        status,
        headers: toHeaders(hop.headers),
      });
    }
  };
}
