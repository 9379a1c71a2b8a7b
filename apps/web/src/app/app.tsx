import { BrowserRouter, useRoutes } from 'react-router';
import { AppProvider } from './provider';
import { routes } from './routes';

/*
 * The declarative router (BrowserRouter + useRoutes), not the data router: the app has no loaders or actions, and the
 * data router's code is about 17 KB gzip more on every first load (docs/decisions/0008-web-code-splitting.md). What
 * it gave the shell is done here instead: route titles (routes.tsx, app-header.tsx), the error boundary
 * (routes/route-error.tsx) and the scroll reset (layout/root-layout.tsx).
 */
function AppRoutes() {
  return useRoutes(routes);
}

export function App() {
  return (
    <AppProvider>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProvider>
  );
}
