/** `npm run bench` with no name: lists the benchmarks. */
console.log('Benchmarks (each prints figures; none is a pass/fail test):');
console.log(
  '  npm run bench -- storage       document store/load latency on SQLite and PostgreSQL',
);
console.log(
  '  npm run bench -- human-check   human-check solve time in Chromium, CPU at 1×, 4×, 6×',
);
console.log(
  '  npm run bench -- sync          edit propagation, Pipit vs bare Hocuspocus; opening a big app',
);
console.log(
  '  npm run bench -- scale         2,000–10,000 sockets, Pipit beside bare; a reconnect storm; two via Redis',
);
console.log(
  '  npm run bench -- pwa           /apps/{id}/pwa: gzip JS, offline render time; Lighthouse scores',
);
console.log(
  '  npm run bench -- ai            AI runs: the server’s overhead per run (stand-in); a real provider',
);
console.log(
  '  npm run bench -- history       a checkpoint of the 1,000-component app; the History panel with 200',
);
console.log(
  '  npm run bench -- review        a suggestion’s parts and merge on the 1,000-component app; who-changed-what cost',
);
console.log(
  '  npm run bench -- editor        the editor opening the 1,000-component app from the device (Chromium)',
);
console.log(
  '  npm run bench -- portable      export and import of an app with 2,000 records and 20 images',
);
console.log(
  '  npm run bench -- records       5,000 records with formulas offline at 4×; formulas; photo upload; gallery fps',
);
console.log(
  '  npm run bench -- backup        backup and restore of 10,000 apps and 1 GB on both engines; edits during one',
);
console.log(
  '  npm run bench -- push          10,000 reminders due in one minute: pushes/s, delay past due, memory; idle cost',
);
