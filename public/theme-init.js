// Applies the person's light/dark choice before the first paint (client/platform/theme-preference.ts).
try {
  var t = localStorage.getItem('pipit:theme');
  if (t === 'light' || t === 'dark') document.documentElement.dataset.theme = t;
} catch {
  // storage unavailable: follow the system
}
