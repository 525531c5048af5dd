import { Route, Routes } from 'react-router';
import { IndexLayout } from './layout/index-layout.tsx';
import { RootShell } from './layout/root-shell.tsx';
import { NotFoundPage, ROUTES } from './routes.tsx';

/** Layout routes are children of the one index layout; the bare pages sit beside it. */
export const routeTree = (
  <Route element={<RootShell />}>
    <Route path="/" element={<IndexLayout />}>
      {ROUTES.filter((route) => route.layout).map((route) =>
        route.path === '/' ? (
          <Route key={route.path} index element={route.element} />
        ) : (
          <Route key={route.path} path={route.path} element={route.element} />
        ),
      )}
      <Route path="*" element={<NotFoundPage />} />
    </Route>
    {ROUTES.filter((route) => !route.layout).map((route) => (
      <Route key={route.path} path={route.path} element={route.element} />
    ))}
  </Route>
);

/**
 * Declarative routes (no data router): the app has no loaders or actions, and this keeps the
 * router's share of the home route's JavaScript about 15 kB (gzip) smaller.
 */
export function AppRoutes() {
  return <Routes>{routeTree}</Routes>;
}
