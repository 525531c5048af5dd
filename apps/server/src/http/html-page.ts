import { LANGUAGE_TAGS, type TLanguage, translate } from '@sorte/contract';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

/** A small self-contained page for the few cases a browser gets no app (unknown site, app not built). */
export function htmlPage(lang: TLanguage, title: string, body: string): string {
  return `<!doctype html>
<html lang="${LANGUAGE_TAGS[lang]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#0b0f17;color:#e8ecf4;font:16px/1.5 system-ui,sans-serif}
main{max-width:32rem;padding:2rem;text-align:center}
h1{font-size:1.5rem;margin:0 0 .5rem;color:#f5c542}
p{margin:0;color:#a9b3c7}
</style>
</head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p></main></body>
</html>
`;
}

export function unknownSitePage(lang: TLanguage): string {
  return htmlPage(
    lang,
    translate(lang, 'messages.unknown_site_title'),
    translate(lang, 'messages.unknown_site_body'),
  );
}
