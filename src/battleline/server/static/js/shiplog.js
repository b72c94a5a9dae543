// The page's shiplog part (filled in by its own change).

/** Hook this part into the page's shared `app` (see main.js). */
export function mount(app) {}
