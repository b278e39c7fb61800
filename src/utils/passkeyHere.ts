import { browserSupportsWebAuthn } from '@simplewebauthn/browser';

/** Why a passkey cannot work on this page, or 'ok'. */
export type PasskeysHere = 'ok' | 'browser' | 'address';

/**
 * Whether a passkey can work on this page: the browser must know WebAuthn, and the page must be
 * opened by a name, not an IP address (127.0.0.1, [::1]): WebAuthn names a site by its domain, so
 * at an address every attempt fails (the address the server prints by default is one; localhost
 * works).
 */
export function passkeysHere(hostname: string = window.location.hostname): PasskeysHere {
  if (!browserSupportsWebAuthn()) return 'browser';
  const ip = /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.includes(':') || hostname.startsWith('[');
  return ip ? 'address' : 'ok';
}

/** What the settings say when a passkey cannot work here. */
export const PASSKEYS_HERE_MESSAGES: Record<Exclude<PasskeysHere, 'ok'>, string> = {
  browser: '当前浏览器不支持通行密钥',
  address: '通行密钥需要用域名打开本站（本机请用 localhost，而不是 IP 地址）',
};
