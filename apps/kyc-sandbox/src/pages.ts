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
header{background:#35506b;color:#fff;padding:14px 18px;font-weight:600}
main{max-width:720px;margin:0 auto;padding:16px}
.card{background:#fff;border-radius:14px;padding:18px;margin-bottom:14px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
.muted{color:#5b6b78;font-size:14px}
.notice{background:#fff5d6;color:#5c4300;border-radius:10px;padding:10px 12px;font-size:14px}
label{display:block;font-size:14px;font-weight:600;margin:12px 0 4px}
input,select{width:100%;font-size:17px;padding:11px 12px;border:1px solid #c9d3db;border-radius:10px;background:#fff}
button{width:100%;font-size:17px;font-weight:600;padding:13px;border:0;border-radius:10px;cursor:pointer;margin-top:14px}
.primary{background:#35506b;color:#fff}
.button-link{display:block;text-align:center;font-size:17px;font-weight:600;padding:13px;border-radius:10px;background:#35506b;color:#fff;text-decoration:none;margin-top:14px}
.secondary{background:#e3e9ee;color:#14202b}
.danger{background:#b3261e;color:#fff}
.small{width:auto;font-size:14px;padding:7px 12px;margin:4px 4px 0 0}
.error{background:#fde0dd;color:#8c1d15}
.row{display:flex;flex-wrap:wrap;gap:6px;align-items:center}
.thumbs img{width:96px;height:72px;object-fit:cover;border-radius:8px;border:1px solid #c9d3db;margin-right:6px}
video,canvas{width:100%;border-radius:10px;background:#000}
table{width:100%;border-collapse:collapse;font-size:15px}
th,td{text-align:left;padding:7px 6px;border-bottom:1px solid #e3e9ee;vertical-align:top}
`;

/** A sandbox page: its banner says so, since no real document or liveness check happens here. */
export function layout(title: string, body: string, script = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><header>KYC provider · sandbox</header><main>${body}</main>${script ? `<script>${script}</script>` : ''}</body></html>`;
}
