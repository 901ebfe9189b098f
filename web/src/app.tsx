import { lazy, type ReactNode, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { Layout } from './layout';
import { AcceptPage } from './pages/accept';
import { ActionPage, ActionsPage } from './pages/actions';
import { AuditPage } from './pages/audit';
import { BlueprintPage, CatalogPage } from './pages/catalog';
import { ChannelsPage } from './pages/channels';
import { CheckPage } from './pages/check';
import { ChecksPage, NewCheckPage } from './pages/checks';
import { ConfigPage } from './pages/config';
import { ConsentPage } from './pages/consent';
import { EntityPage } from './pages/entity';
import { GraphPage } from './pages/graph';
import { IncidentPage, IncidentsPage } from './pages/incidents';
import { IntegrationsPage } from './pages/integrations';
import { LocationsPage } from './pages/locations';
import { MaintenancePage } from './pages/maintenance';
import { NotificationsPage } from './pages/notifications';
import { ForgotPasswordPage, ResetPasswordPage } from './pages/reset';
import { SettingsPage } from './pages/settings';
import { SignInPage } from './pages/sign-in';
import { SkillsPage } from './pages/skills';
import { StatusPage } from './pages/status';
import { StatusPagesPage } from './pages/status-pages';
import { AfterSignIn } from './people/after-sign-in';
import { useSessionState } from './session';
import { PageIncidentsPage } from './status-pages/incident-page';
import { Loading } from './ui/feedback';

// The on-call pages load on first visit: they bring Temporal (time zones across DST) with them.
const OnCallPage = lazy(() => import('./pages/on-call').then((m) => ({ default: m.OnCallPage })));
const SchedulePage = lazy(() => import('./pages/on-call').then((m) => ({ default: m.SchedulePage })));

/** A page loaded on first visit, with a loading line meanwhile. */
const later = (page: ReactNode) => <Suspense fallback={<Loading what="the page" />}>{page}</Suspense>;

/** The console's routes: the invitation and password reset pages are open to anyone; every other page needs a session or key. */
export function App() {
  const { session, restoring } = useSessionState();
  return (
    <Routes>
      <Route path="/accept" element={<AcceptPage />} />
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="/reset" element={<ResetPasswordPage />} />
      {restoring ? (
        <Route path="*" element={<Loading what="your session" />} />
      ) : !session ? (
        <Route path="*" element={<SignInPage />} />
      ) : (
        <Route element={<Layout />}>
          <Route index element={<Navigate to="/status" replace />} />
          <Route path="/sign-in" element={<AfterSignIn />} />
          <Route path="/status" element={<StatusPage />} />
          <Route path="/catalog" element={<CatalogPage />} />
          <Route path="/catalog/blueprints/:slug" element={<BlueprintPage />} />
          <Route path="/catalog/graph" element={<GraphPage />} />
          <Route path="/entities/:blueprint/:slug" element={<EntityPage />} />
          <Route path="/checks" element={<ChecksPage />} />
          <Route path="/checks/new" element={<NewCheckPage />} />
          <Route path="/checks/:id" element={<CheckPage />} />
          <Route path="/incidents" element={<IncidentsPage />} />
          <Route path="/incidents/:id" element={<IncidentPage />} />
          <Route path="/maintenance" element={<MaintenancePage />} />
          <Route path="/on-call" element={later(<OnCallPage />)} />
          <Route path="/on-call/:id" element={later(<SchedulePage />)} />
          <Route path="/locations" element={<LocationsPage />} />
          <Route path="/integrations" element={<IntegrationsPage />} />
          <Route path="/status-pages" element={<StatusPagesPage />} />
          <Route path="/status-pages/:slug/incidents" element={<PageIncidentsPage />} />
          <Route path="/notifications" element={<NotificationsPage />} />
          <Route path="/channels" element={<ChannelsPage />} />
          <Route path="/actions" element={<ActionsPage />} />
          <Route path="/actions/:id" element={<ActionPage />} />
          <Route path="/skills" element={<SkillsPage />} />
          <Route path="/settings" element={<SettingsPage />} />
          <Route path="/config" element={<ConfigPage />} />
          <Route path="/audit" element={<AuditPage />} />
          <Route path="/consent" element={<ConsentPage />} />
          <Route path="*" element={<NotFound />} />
        </Route>
      )}
    </Routes>
  );
}

function NotFound() {
  return (
    <section className="page">
      <h1>Not found</h1>
      <p>There is no page at this address.</p>
    </section>
  );
}
