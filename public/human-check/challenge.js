// Pipit's human check, part 1: the challenge script (docs/product/accounts.md#the-human-check). It
// fetches a proof-of-work challenge for one request (ALTCHA v2, iterated SHA-256) and solves it
// with Web Crypto: find the counter whose key SHA-256(salt ‖ nonce ‖ counter as uint32) starts with
// the prefix the server signed. Exposes window.PipitHumanCheck.solve(path, method) → headers.
(() => {
  const CHALLENGE_PATH = '/api/human-check/challenge';
  /** Digests in flight at once: fewer awaits, same work. */
  const BATCH = 64;

  const fromHex = (hex) => {
    const bytes = new Uint8Array(hex.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
    return bytes;
  };
  const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  const startsWith = (bytes, prefix) => prefix.every((b, i) => bytes[i] === b);

  async function deriveKey(parameters, salt, nonce, counter) {
    const input = new Uint8Array(salt.length + nonce.length + 4);
    input.set(salt, 0);
    input.set(nonce, salt.length);
    new DataView(input.buffer).setUint32(salt.length + nonce.length, counter, false);
    let key = input;
    for (let i = 0; i < Math.max(1, parameters.cost); i++) {
      key = new Uint8Array(await crypto.subtle.digest(parameters.algorithm, key));
    }
    return key.slice(0, parameters.keyLength || 32);
  }

  async function solveChallenge(challenge) {
    const parameters = challenge.parameters;
    if (!/^SHA-(256|384|512)$/.test(parameters.algorithm) || parameters.keyPrefix.length % 2) {
      throw new Error(`Unsupported challenge (${parameters.algorithm})`);
    }
    const salt = fromHex(parameters.salt);
    const nonce = fromHex(parameters.nonce);
    const prefix = Array.from(fromHex(parameters.keyPrefix));
    for (let start = 0; start < 0xffffffff; start += BATCH) {
      const keys = await Promise.all(
        Array.from({ length: BATCH }, (_, i) => deriveKey(parameters, salt, nonce, start + i)),
      );
      const found = keys.findIndex((key) => startsWith(key, prefix));
      if (found >= 0) return { counter: start + found, derivedKey: toHex(keys[found]) };
    }
    throw new Error('The challenge has no solution');
  }

  async function solve(path, method) {
    const query = `?path=${encodeURIComponent(path)}&method=${encodeURIComponent(method)}`;
    const response = await fetch(CHALLENGE_PATH + query, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(`The human check could not start (${response.status})`);
    const challenge = await response.json();
    const solution = await solveChallenge(challenge);
    return {
      'X-Human-Check': btoa(JSON.stringify({ challenge, solution })),
      'X-Human-Check-Path': path,
      'X-Human-Check-Method': method,
    };
  }

  window.PipitHumanCheck = { solve, solveChallenge };
})();
