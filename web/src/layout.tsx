import { useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { LiveIndicator } from './live/live-indicator';
import { useStatusStream } from './live/use-status-stream';
import { GlobalSearch } from './search/global-search';
import { useSession } from './session';

interface NavItem {
  to: string;
  label: string;
  /** Other paths the item stands for (its page's other tab). */
  also?: readonly string[] | undefined;
}

/** A group of the navigation: its name and its pages as [path, label, other paths it stands for]. */
const group = (name: string, ...items: [string, string, string[]?][]) => ({
  name,
  items: items.map(([to, label, also]): NavItem => ({ to, label, also })),
});

/**
 * The navigation, grouped by job (issue 76 point 5): what is happening now, what is watched, how
 * it alerts, who is told, what runs by itself, and the account.
 */
const NAV_GROUPS = [
  group('Now', ['/status', 'Status'], ['/incidents', 'Incidents'], ['/on-call', 'On-call']),
  group(
    'Catalog',
    ['/catalog', 'Entities'],
    ['/catalog/graph', 'Graph'],
    ['/checks', 'Checks'],
    ['/locations', 'Locations'],
  ),
  group(
    'Alerting',
    ['/channels', 'Channels & routes', ['/notifications']],
    ['/integrations', 'Integrations'],
    ['/maintenance', 'Maintenance'],
  ),
  group('Communication', ['/status-pages', 'Status pages']),
  group('Automation', ['/actions', 'Actions'], ['/skills', 'Skills & MCP']),
  group('Account', ['/settings', 'Settings'], ['/config', 'Configuration'], ['/audit', 'Audit']),
];

/** Whether the item stands for the page at `path` (its own path, below it, or one of its other tabs). */
function isCurrent(item: NavItem, path: string): boolean {
  const under = (base: string) => path === base || path.startsWith(`${base}/`);
  // The catalog's entities are not current on its graph, which is an item of its own.
  if (item.to === '/catalog') return under('/catalog') && !under('/catalog/graph');
  return under(item.to) || (item.also ?? []).some(under);
}

/** The main navigation: groups in a side column on a wide screen, behind a Menu button on a narrow one. */
function MainNav() {
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  return (
    <nav aria-label="Main" className={open ? 'side open' : 'side'}>
      <button
        type="button"
        className="menu-toggle"
        aria-expanded={open}
        aria-controls="nav-groups"
        onClick={() => setOpen(!open)}
      >
        Menu
      </button>
      <div id="nav-groups" className="nav-groups">
        {NAV_GROUPS.map((group) => (
          <div key={group.name} className="nav-group">
            <span id={`nav-${group.name}`} className="nav-group-name">
              {group.name}
            </span>
            <ul aria-labelledby={`nav-${group.name}`}>
              {group.items.map((item) => {
                const current = isCurrent(item, pathname);
                return (
                  <li key={item.to}>
                    <Link
                      to={item.to}
                      className={current ? 'active' : undefined}
                      aria-current={current ? 'page' : undefined}
                      onClick={() => setOpen(false)}
                    >
                      {item.label}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
      </div>
    </nav>
  );
}

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
      <div className="frame">
        <MainNav />
        <main id="main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
