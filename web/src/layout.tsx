import { NavLink, Outlet } from 'react-router';
import { LiveIndicator } from './live/live-indicator';
import { useStatusStream } from './live/use-status-stream';
import { GlobalSearch } from './search/global-search';
import { useSession } from './session';

const NAV = [
  ['/status', 'Status'],
  ['/incidents', 'Incidents'],
  ['/maintenance', 'Maintenance'],
  ['/on-call', 'On-call'],
  ['/status-pages', 'Status pages'],
  ['/catalog', 'Catalog'],
  ['/catalog/graph', 'Graph'],
  ['/checks', 'Checks'],
  ['/locations', 'Locations'],
  ['/integrations', 'Integrations'],
  ['/notifications', 'Notifications'],
  ['/channels', 'Channels'],
  ['/actions', 'Actions'],
  ['/skills', 'Skills & MCP'],
  ['/settings', 'Settings'],
  ['/config', 'Configuration'],
  ['/audit', 'Audit'],
] as const;

/** The signed-in frame: skip link, navigation, who is signed in, and the page. */
export function Layout() {
  const session = useSession();
  const who = session.me.user?.email ?? session.me.email;
  const live = useStatusStream();
  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Vigil</span>
        <nav aria-label="Main">
          <ul>
            {NAV.map(([to, label]) => (
              <li key={to}>
                <NavLink to={to} end={to === '/catalog'}>
                  {label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="who">
          <GlobalSearch />
          <LiveIndicator state={live} />
          <span>{who}</span>
          {session.canWrite ? null : (
            <span className="badge read-only">
              {session.me.user?.role === 'viewer' ? 'viewer' : 'read-only key'}
            </span>
          )}
          <button type="button" onClick={session.signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
