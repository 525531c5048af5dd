import type { FastifyInstance } from 'fastify';
import type { CaughtMessage } from './catcher.ts';

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#eef2f5;color:#14202b}
header{background:#27456b;color:#fff;padding:14px 18px;font-weight:600;display:flex;justify-content:space-between;align-items:center}
header small{font-weight:400;opacity:.8}
header a{color:#fff}
main{max-width:900px;margin:0 auto;padding:16px}
.card{background:#fff;border-radius:14px;padding:16px 18px;margin-bottom:12px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
.muted{color:#5b6b78;font-size:14px}
a.msg{display:block;color:inherit;text-decoration:none}
a.msg strong{display:block;font-size:17px}
pre{white-space:pre-wrap;word-break:break-word;font:15px/1.5 system-ui,sans-serif;margin:12px 0 0}
`;

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><header><a href="/">Mail catcher</a><small>local only · nothing is delivered</small></header>
<main>${body}</main></body></html>`;
}

function item(message: CaughtMessage): string {
  return `<div class="card"><a class="msg" href="/messages/${message.id}">
<strong>${escapeHtml(message.subject || '(no subject)')}</strong>
<span class="muted">to ${escapeHtml(message.to.join(', '))} · ${escapeHtml(message.receivedAt)}</span></a></div>`;
}

/** The page: every message caught, newest first, and one page per message. */
export function registerPages(
  app: FastifyInstance,
  source: { messages(to?: string): CaughtMessage[]; find(id: number): CaughtMessage | null },
): void {
  app.get('/', async (_request, reply) => {
    const list = source.messages();
    const body =
      list.length === 0
        ? '<div class="card muted">No messages yet. Mail the server sends (codes, notices) appears here.</div>'
        : list.map(item).join('');
    return reply.type('text/html; charset=utf-8').send(layout('Mail catcher', `<h1>Inbox</h1>${body}`));
  });
  app.get<{ Params: { id: string } }>('/messages/:id', async (request, reply) => {
    const id = /^\d{1,9}$/.test(request.params.id) ? Number(request.params.id) : -1;
    const message = source.find(id);
    if (!message) {
      return reply
        .code(404)
        .type('text/html; charset=utf-8')
        .send(layout('Not found', '<div class="card">No such message.</div>'));
    }
    const body = `<div class="card"><h1>${escapeHtml(message.subject)}</h1>
<p class="muted">from ${escapeHtml(message.from)} · to ${escapeHtml(message.to.join(', '))} · ${escapeHtml(message.receivedAt)}</p>
<pre data-testid="mail-body">${escapeHtml(message.text)}</pre></div>`;
    return reply.type('text/html; charset=utf-8').send(layout(message.subject, body));
  });
}
