import { createBrowserRouter, type RouteObject } from 'react-router';
import { IndexLayout } from './layout/index-layout.tsx';
import { RootShell } from './layout/root-shell.tsx';
import { NotFoundPage, ROUTES } from './routes.tsx';

/** Turns the route table into react-router objects: layout routes become children of the index layout. */
export function buildRouteObjects(): RouteObject[] {
  const inLayout: RouteObject[] = ROUTES.filter((route) => route.layout).map((route) =>
    route.path === '/'
      ? { index: true, element: route.element }
      : { path: route.path, element: route.element },
  );
  const bare: RouteObject[] = ROUTES.filter((route) => !route.layout).map((route) => ({
    path: route.path,
    element: route.element,
  }));
  return [
    {
      element: <RootShell />,
      children: [
        {
          path: '/',
          element: <IndexLayout />,
          children: [...inLayout, { path: '*', element: <NotFoundPage /> }],
        },
        ...bare,
      ],
    },
  ];
}

export const router = createBrowserRouter(buildRouteObjects());
