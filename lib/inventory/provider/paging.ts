import { logger } from '#lib/shared/log';
import { ProviderError } from './vendorHttp';
import type { ListingBounds } from './types';

/*
 * Bounds on a vendor listing's pages (docs/guide/rules/inventory.md "Vendor paging: a page seen twice ends a listing; a page budget from the fleet held; backoff"). A vendor answering a page it answered before
 * (a `Link` back to an earlier URL, a `next_page_token` seen already) never ends: the listing fails
 * at the repeat. One that keeps answering new pages fails at its page budget, derived from the
 * fleet we hold: twice the pages that fleet fills, at least PAGE_FLOOR, doubled for each listing
 * in a row that failed on a bound (a fleet that really grew past the budget is listed within a few
 * syncs), never above MAX_PAGES. Either failure is a PagingBound: the sync backs off from that
 * provider (lib/inventory/pure/providerStatus.ts `pagingBackoff`).
 */

/**
 * Pages any listing may take whatever the fleet (a first sync knows no fleet): a first sync of
 * twice the fleet the service is sized for (100k devices) at Webex's largest page (1,000).
 */
export const PAGE_FLOOR = 200;
/** Pages no listing ever takes (the bound before there was a budget). */
export const MAX_PAGES = 10_000;

export type { ListingBounds };

/** A listing that repeated a page or spent its page budget: the provider is backed off. */
export class PagingBound extends ProviderError {}

/** The pages one listing of `pageSize` items a page may take, given what the sync knows. */
export const pageBudget = (pageSize: number, bounds: ListingBounds = {}): number => {
  const fleetPages = Math.ceil(Math.max(0, bounds.fleet ?? 0) / Math.max(1, pageSize));
  const base = Math.max(PAGE_FLOOR, 2 * fleetPages);
  return Math.min(MAX_PAGES, base * 2 ** Math.min(Math.max(0, bounds.pagingFailures ?? 0), 20));
};

/**
 * One listing's page guard: `visit(page)` before each page is asked for (`page`: its URL or
 * token, the first page's too), throwing PagingBound on a page seen before or one past `budget`.
 * `path` names the listing in the error (never a query or a token).
 */
export const pageGuard = (vendor: string, path: string, budget: number) => {
  const seen = new Set<string>();
  const fail = (message: string): never => {
    logger.warn('vendor listing stopped', { vendor, message });
    throw new PagingBound(`${vendor}: ${message}`);
  };
  return {
    visit(page: string): void {
      if (seen.has(page)) fail(`${path} repeated a page after ${seen.size} pages (a next page seen before)`);
      if (seen.size >= budget) fail(`${path} did not end within its budget of ${budget} pages`);
      seen.add(page);
    },
  };
};
