import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { passkeysHere } from '@/utils/passkeyHere';

// jsdom has no WebAuthn: the browser's answer is given.
jest.mock('@simplewebauthn/browser', () => ({ browserSupportsWebAuthn: jest.fn() }));

describe('passkeysHere', () => {
  it('is ok by a name, and not at an IP address, where WebAuthn cannot name the site', () => {
    jest.mocked(browserSupportsWebAuthn).mockReturnValue(true);
    expect(['localhost', 'admin.example.com', 'dev.localhost'].map((host) => passkeysHere(host))).toEqual(['ok', 'ok', 'ok']);
    expect(['127.0.0.1', '192.168.1.20', '[::1]', '::1'].map((host) => passkeysHere(host))).toEqual([
      'address',
      'address',
      'address',
      'address',
    ]);
  });

  it('says the browser first when it has no WebAuthn', () => {
    jest.mocked(browserSupportsWebAuthn).mockReturnValue(false);
    expect(passkeysHere('localhost')).toBe('browser');
    expect(passkeysHere('127.0.0.1')).toBe('browser');
  });
});
