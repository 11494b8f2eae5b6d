// Sets the theme before the first paint (no flash): the stored choice, else the system preference.
// A separate file because the server's Content-Security-Policy allows no inline scripts.
(() => {
  let theme = 'light';
  try {
    const stored = localStorage.getItem('saksi.theme');
    if (stored === 'light' || stored === 'dark') theme = stored;
    else if (matchMedia('(prefers-color-scheme: dark)').matches) theme = 'dark';
  } catch (_error) {}
  document.documentElement.dataset.theme = theme;
})();
