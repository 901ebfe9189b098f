import { Link, useLocation } from 'react-router';

/** The pages of one concern, as tabs under its heading (e.g. channels and routes beside the delivery log). */
export function PageTabs({ label, tabs }: { label: string; tabs: readonly { to: string; label: string }[] }) {
  const { pathname } = useLocation();
  return (
    <nav aria-label={label} className="page-tabs">
      <ul>
        {tabs.map((tab) => (
          <li key={tab.to}>
            <Link to={tab.to} aria-current={pathname === tab.to ? 'page' : undefined}>
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
