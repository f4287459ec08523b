/** The pages lists are answered in (lib/store/paging.ts), as the domains and functions import them. */
export { mapListOrPage, mapPage, type Page } from '#lib/store/paging';
