/* global document, matchMedia */
// Runs before React so the first paint already has the saved sidebar width and theme. A file rather than an inline
// script, so the Content-Security-Policy can refuse every inline script (apps/server/src/http/security-headers.ts).
// Keep in sync with src/components/ui/sidebar.tsx and src/hooks/use-theme.ts.
(function () {
  var root = document.documentElement;
  try {
    var saved = /(?:^|;\s*)sidebar_state=(true|false)(?:;|$)/.exec(document.cookie);
    root.setAttribute(
      'data-sidebar-state',
      saved && saved[1] === 'false' ? 'collapsed' : 'expanded',
    );
    var theme = localStorage.getItem('theme');
    if (theme !== 'light' && theme !== 'dark') theme = 'system';
    var dark =
      theme === 'dark' ||
      (theme === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
    root.classList.toggle('dark', dark);
    root.style.colorScheme = dark ? 'dark' : 'light';
  } catch (_) {
    root.setAttribute('data-sidebar-state', 'expanded');
  }
})();
