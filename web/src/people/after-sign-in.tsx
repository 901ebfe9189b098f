import { Navigate, useSearchParams } from 'react-router';
import { safeNextPath } from './next-path';

/** `/sign-in?next=…` once signed in: on to `next` when it is a path of this console, else the status page. */
export function AfterSignIn() {
  const [params] = useSearchParams();
  return <Navigate to={safeNextPath(params.get('next'))} replace />;
}
