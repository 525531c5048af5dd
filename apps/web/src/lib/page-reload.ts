/** How the page reloads (language switch, new app version); tests replace `run` (jsdom cannot navigate). */
export const pageReload = { run: (): void => window.location.reload() };
