import type { ApiClient, ClusterView } from '../api';
import type { Host } from '../host';
import type { Route } from '../route';

/** What a page gets. */
export interface PageContext {
  api: ApiClient;
  host: Host;
  route: Route;
  /** The cluster the page is about (from the route, the vSphere context, or the first one). */
  cluster: ClusterView | null;
  clusters: ClusterView[];
  /** Re-renders the current route. */
  refresh(): void;
  navigate(hash: string): void;
  /** Called when the page is left (destroy charts, timers). */
  onLeave(fn: () => void): void;
}

export type Page = (ctx: PageContext) => Promise<HTMLElement>;
