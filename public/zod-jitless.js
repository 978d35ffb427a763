// Runs before any module: zod reads this object when it loads. Without it zod probes
// `new Function` on its first parse, and the Content-Security-Policy (no 'unsafe-eval') reports the
// probe as a violation even though zod catches it. A classic script, so it runs before the modules
// and before any chunk that parses at load (the session reads its stored account then).
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, {
  jitless: true,
});
