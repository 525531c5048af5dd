import { Authenticated, Refine } from '@refinedev/core';
import routerProvider, { CatchAllNavigate } from '@refinedev/react-router';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { BrowserRouter, Navigate, Outlet, Route, Routes } from 'react-router';
import { Layout } from './components/layout.tsx';
import LoginPage from './pages/login.tsx';
import SetupPage from './pages/setup.tsx';
import { accessControlProvider, authProvider, can, dataProvider, i18nProvider } from './providers.ts';
import { RESOURCES } from './resources.tsx';

function Loading() {
  const { t } = useTranslation();
  return <p className="muted page">{t('common.loading')}</p>;
}

function NotFound() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <h1>{t('common.not_found')}</h1>
    </div>
  );
}

/** A screen for operators whose role has its permission (checked when it renders). */
function Guard({ resource }: { resource: (typeof RESOURCES)[number] }) {
  if (!can(resource.permission)) return <NotFound />;
  return (
    <Suspense fallback={<Loading />}>
      <resource.page />
    </Suspense>
  );
}

/** The first screen the operator's role opens. */
function Home() {
  const first = RESOURCES.find((resource) => can(resource.permission));
  return first ? <Navigate to={`/${first.path}`} replace /> : <NotFound />;
}

export function App() {
  return (
    <BrowserRouter basename="/admin">
      <Refine
        dataProvider={dataProvider}
        authProvider={authProvider}
        accessControlProvider={accessControlProvider}
        i18nProvider={i18nProvider}
        routerProvider={routerProvider}
        resources={RESOURCES.map((resource) => ({
          name: resource.name,
          list: `/${resource.path}`,
          meta: { label: resource.label, permission: resource.permission },
        }))}
        options={{
          syncWithLocation: false,
          warnWhenUnsavedChanges: false,
          disableTelemetry: true,
          reactQuery: { clientConfig: { defaultOptions: { queries: { retry: false, staleTime: 10_000 } } } },
        }}
      >
        <Routes>
          <Route
            element={
              <Authenticated key="back-office" fallback={<CatchAllNavigate to="/login" />}>
                <Layout />
              </Authenticated>
            }
          >
            <Route index element={<Home />} />
            {RESOURCES.map((resource) => (
              <Route
                key={resource.name}
                path={`${resource.path}/*`}
                element={<Guard resource={resource} />}
              />
            ))}
            <Route path="*" element={<NotFound />} />
          </Route>
          <Route
            element={
              <Authenticated key="sign-in" fallback={<Outlet />}>
                <Navigate to="/" replace />
              </Authenticated>
            }
          >
            <Route path="/login" element={<LoginPage />} />
          </Route>
          <Route path="/setup" element={<SetupPage />} />
        </Routes>
      </Refine>
    </BrowserRouter>
  );
}
