// Pipit's human check, part 2: the protection script (docs/product/accounts.md#the-human-check). A
// background request that asks for a check (header X-Human-Check-Request: required) gets a freshly
// solved challenge bound to its path and method, in the X-Human-Check headers the server verifies.
// Every other request passes through untouched.
(() => {
  const originalFetch = window.fetch.bind(window);

  window.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (request.headers.get('X-Human-Check-Request') !== 'required') return originalFetch(request);
    const url = new URL(request.url, location.href);
    const headers = new Headers(request.headers);
    headers.delete('X-Human-Check-Request');
    if (url.origin === location.origin && window.PipitHumanCheck) {
      const proof = await window.PipitHumanCheck.solve(url.pathname, request.method);
      for (const [name, value] of Object.entries(proof)) headers.set(name, value);
    }
    return originalFetch(new Request(request, { headers }));
  };
})();
