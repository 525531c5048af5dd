import type { FastifyInstance, FastifyReply } from 'fastify';
import QRCode from 'qrcode';
import { isValidCpf } from './documents.ts';
import { displayBrl } from './money.ts';
import { type Psp, SandboxError } from './psp.ts';
import type { Charge, Payout, PayoutMode } from './state.ts';

/** A CPF with valid check digits that belongs to nobody in particular, for one-click testing. */
export const DEMO_PAYER_CPF = '52998224725';
const DEMO_PAYER_NAME = 'Maria da Silva';
const LIST_LIMIT = 100;
const TXID = /^[a-zA-Z0-9]{26,35}$/;
const PAYOUT_ID = TXID;

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
header{background:#0b5d4b;color:#fff;padding:14px 18px;font-weight:600;display:flex;justify-content:space-between;align-items:center}
header small{font-weight:400;opacity:.8}
main{max-width:460px;margin:0 auto;padding:16px}
main.wide{max-width:1100px}
.card{background:#fff;border-radius:14px;padding:18px;margin-bottom:14px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
.amount{font-size:34px;font-weight:700;margin:2px 0}
.muted{color:#5b6b78;font-size:14px}
.qr{display:flex;justify-content:center;margin:8px 0}
.qr svg{width:200px;height:200px}
textarea{width:100%;font:12px/1.35 ui-monospace,Menlo,monospace;border:1px solid #c9d3db;border-radius:8px;padding:8px;resize:none;background:#f7f9fa}
label{display:block;font-size:14px;font-weight:600;margin:12px 0 4px}
input,select{width:100%;max-width:520px;font-size:17px;padding:11px 12px;border:1px solid #c9d3db;border-radius:10px}
button{width:100%;font-size:17px;font-weight:600;padding:13px;border:0;border-radius:10px;cursor:pointer;margin-top:14px}
.primary{background:#0b5d4b;color:#fff}
.secondary{background:#e3e9ee;color:#14202b}
.danger{background:#b3261e;color:#fff}
.small{width:auto;font-size:14px;padding:7px 12px;margin:0 4px 0 0}
.badge{display:inline-block;padding:3px 9px;border-radius:999px;font-size:12px;font-weight:700;letter-spacing:.02em}
.ATIVA,.EM_PROCESSAMENTO,.pending{background:#fff3c4;color:#6b5200}
.CONCLUIDA,.REALIZADO,.delivered{background:#d3f2e3;color:#0b5d4b}
.REMOVIDA_PELO_PSP,.REMOVIDA_PELO_USUARIO_RECEBEDOR,.NAO_REALIZADO,.failed{background:#fde0dd;color:#8c1d15}
.error{background:#fde0dd;color:#8c1d15;border-radius:10px;padding:10px 12px;margin-top:10px}
dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px;margin:8px 0 0;font-size:14px}
dt{color:#5b6b78}dd{margin:0;word-break:break-all}
table{width:100%;border-collapse:collapse;font-size:14px}
th,td{text-align:left;padding:7px 6px;border-bottom:1px solid #e3e9ee;vertical-align:top}
td.mono{font-family:ui-monospace,Menlo,monospace;font-size:12px;word-break:break-all}
form.inline{display:inline}
.scroll{overflow-x:auto}
`;

function layout(title: string, body: string, wide = false): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><header><span>PIX Sandbox Bank</span><small>test environment</small></header>
<main${wide ? ' class="wide"' : ''}>${body}</main></body></html>`;
}

function badge(status: string): string {
  return `<span class="badge ${escapeHtml(status)}">${escapeHtml(status.replace(/_/g, ' '))}</span>`;
}

function html(reply: FastifyReply, status: number, page: string) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'",
    )
    .type('text/html; charset=utf-8')
    .send(page);
}

function readForm(body: unknown): URLSearchParams {
  return typeof body === 'string' ? new URLSearchParams(body) : new URLSearchParams();
}

async function payerPage(psp: Psp, charge: Charge, form: { nome: string; cpf: string; error?: string }) {
  const merchant = psp.merchant;
  const amount = escapeHtml(displayBrl(charge.valor.original));
  const expiresAt = Date.parse(charge.calendario.criacao) + charge.calendario.expiracao * 1000;
  const head = `<div class="card">
<div class="muted">Pay to</div><div><strong>${escapeHtml(merchant.name)}</strong> · ${escapeHtml(merchant.city)}</div>
<div class="amount" data-testid="pay-amount">${amount}</div>
<div>${badge(charge.status)}</div>
${charge.solicitacaoPagador ? `<p class="muted">${escapeHtml(charge.solicitacaoPagador)}</p>` : ''}
<dl><dt>txid</dt><dd>${escapeHtml(charge.txid)}</dd></dl></div>`;

  if (charge.status === 'CONCLUIDA') {
    const pix = charge.pix[0]!;
    return layout(
      'Paid',
      `${head}<div class="card" data-testid="pay-done"><h2>Payment sent ✓</h2>
<dl><dt>Paid by</dt><dd>${escapeHtml(pix.pagador.nome)}</dd><dt>CPF</dt><dd>${escapeHtml(pix.pagador.cpf)}</dd>
<dt>When</dt><dd>${escapeHtml(pix.horario)}</dd><dt>End-to-end id</dt><dd>${escapeHtml(pix.endToEndId)}</dd></dl>
${(pix.devolucoes ?? [])
  .map(
    (d) =>
      `<p data-testid="pay-refund">Refund ${escapeHtml(displayBrl(d.valor))}: ${badge(d.status)}${d.descricao ? ` <span class="muted">${escapeHtml(d.descricao)}</span>` : ''}</p>`,
  )
  .join('')}
<p class="muted">The receiver was notified. You can close this page.</p></div>`,
    );
  }
  if (charge.status !== 'ATIVA') {
    return layout(
      'Charge closed',
      `${head}<div class="card" data-testid="pay-closed"><h2>This charge can no longer be paid</h2>
<p class="muted">${charge.status === 'REMOVIDA_PELO_PSP' ? 'It expired' : 'The receiver removed it'}${
        charge.encerramento ? ` at ${escapeHtml(charge.encerramento)}` : ''
      }. No money was taken.</p></div>`,
    );
  }

  const svg = await QRCode.toString(charge.pixCopiaECola, {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 1,
  });
  const txid = escapeHtml(charge.txid);
  return layout(
    `Pay ${displayBrl(charge.valor.original)}`,
    `${head}<div class="card"><h3 style="margin:0">Pay as</h3>
<form method="post" action="/pay/${txid}" data-testid="pay-form">
<label for="nome">Payer name</label><input id="nome" name="nome" maxlength="140" required value="${escapeHtml(form.nome)}" autocomplete="name">
<label for="cpf">Payer CPF (11 digits)</label><input id="cpf" name="cpf" inputmode="numeric" maxlength="14" required value="${escapeHtml(form.cpf)}">
${form.error ? `<div class="error" role="alert" data-testid="pay-error">${escapeHtml(form.error)}</div>` : ''}
<button type="submit" class="primary" data-testid="pay-submit">Pay ${amount}</button></form>
<form method="post" action="/pay/${txid}/expire"><button type="submit" class="secondary" data-testid="pay-expire">Let it expire</button></form></div>
<div class="card"><div class="qr" data-testid="pay-qr">${svg}</div>
<label for="code">PIX copy and paste</label>
<textarea id="code" rows="4" readonly data-testid="pay-code">${escapeHtml(charge.pixCopiaECola)}</textarea>
<button type="button" class="secondary" id="copy">Copy code</button>
<p class="muted" id="countdown" data-expires="${expiresAt}">Expires at ${escapeHtml(new Date(expiresAt).toISOString())}</p></div>
<script>
document.getElementById('copy').onclick=function(){var t=document.getElementById('code');t.select();
(navigator.clipboard?navigator.clipboard.writeText(t.value):Promise.reject()).then(function(){this.textContent='Copied ✓'}.bind(this),function(){document.execCommand('copy')});};
(function tick(){var el=document.getElementById('countdown');var left=Math.floor((+el.dataset.expires-Date.now())/1000);
if(left<=0){location.reload();return;}var h=Math.floor(left/3600),m=Math.floor(left%3600/60),s=left%60;
el.textContent='Expires in '+(h?h+'h ':'')+m+'m '+(s<10?'0':'')+s+'s';setTimeout(tick,1000);})();
</script>`,
  );
}

function chargeRows(charges: Charge[]): string {
  if (charges.length === 0) return '<tr><td colspan="5" class="muted">No charges yet.</td></tr>';
  return charges
    .map(
      (c) => `<tr><td class="mono"><a href="/pay/${escapeHtml(c.txid)}">${escapeHtml(c.txid)}</a></td>
<td>${escapeHtml(displayBrl(c.valor.original))}</td><td>${badge(c.status)}</td><td>${escapeHtml(c.calendario.criacao)}</td>
<td>${c.pix[0] ? `${escapeHtml(c.pix[0].pagador.nome)} (${escapeHtml(c.pix[0].pagador.cpf)})` : ''}${(
        c.pix[0]?.devolucoes ?? []
      )
        .map(
          (d) =>
            `<br><span class="muted">refund ${escapeHtml(displayBrl(d.valor))}</span> ${badge(d.status)}`,
        )
        .join('')}</td></tr>`,
    )
    .join('');
}

function payoutRows(payouts: Payout[]): string {
  if (payouts.length === 0) return '<tr><td colspan="6" class="muted">No payouts yet.</td></tr>';
  return payouts
    .map((p) => {
      const id = escapeHtml(p.id);
      const actions =
        p.status === 'EM_PROCESSAMENTO'
          ? `<form class="inline" method="post" action="/admin/payouts/${id}/succeed"><button class="small primary" data-testid="payout-succeed-${id}">Succeed</button></form>
<form class="inline" method="post" action="/admin/payouts/${id}/fail"><button class="small danger" data-testid="payout-fail-${id}">Fail</button></form>`
          : escapeHtml(p.motivo ?? p.endToEndId ?? '');
      return `<tr><td class="mono">${id}</td><td>${escapeHtml(displayBrl(p.valor))}</td>
<td>${escapeHtml(p.tipoChave)} ${escapeHtml(p.chave)}<br><span class="muted">${escapeHtml(p.favorecido.nome)}</span></td>
<td>${badge(p.status)}</td><td>${escapeHtml(p.horario.solicitacao)}</td><td>${actions}</td></tr>`;
    })
    .join('');
}

function adminPage(psp: Psp): string {
  const mode = psp.state.settings.payoutMode;
  const option = (value: PayoutMode, label: string) =>
    `<option value="${value}"${mode === value ? ' selected' : ''}>${label}</option>`;
  const webhooks = Object.values(psp.state.webhooks);
  const deliveries = psp.state.deliveries.slice(-50).reverse();
  return layout(
    'PIX Sandbox — overview',
    `<div class="card"><h2 style="margin-top:0">Receiver</h2>
<dl><dt>Name</dt><dd>${escapeHtml(psp.merchant.name)} · ${escapeHtml(psp.merchant.city)}</dd>
<dt>PIX keys</dt><dd>${psp.pixKeys.map(escapeHtml).join(', ')}</dd>
<dt>Webhooks</dt><dd>${webhooks.length ? webhooks.map((w) => `${escapeHtml(w.chave)} → ${escapeHtml(w.webhookUrl)}`).join('<br>') : 'none registered'}</dd></dl>
<form method="post" action="/admin/settings"><label for="mode">Payouts are decided</label>
<select id="mode" name="payoutMode" data-testid="payout-mode">${option('manual', 'manually (buttons below)')}${option('succeed', 'automatically: succeed')}${option('fail', 'automatically: fail')}</select>
<button class="secondary small" style="margin-top:8px">Save</button></form></div>
<div class="card"><h2 style="margin-top:0">Charges (cob)</h2><div class="scroll"><table>
<tr><th>txid</th><th>Amount</th><th>Status</th><th>Created</th><th>Payer</th></tr>${chargeRows(psp.listCharges(LIST_LIMIT))}</table></div></div>
<div class="card"><h2 style="margin-top:0">Payouts</h2><div class="scroll"><table>
<tr><th>id</th><th>Amount</th><th>To</th><th>Status</th><th>Requested</th><th></th></tr>${payoutRows(psp.listPayouts(LIST_LIMIT))}</table></div></div>
<div class="card"><h2 style="margin-top:0">Webhook deliveries</h2><div class="scroll"><table>
<tr><th>Kind</th><th>URL</th><th>Status</th><th>Attempts</th><th>Last error</th></tr>${
      deliveries.length
        ? deliveries
            .map(
              (d) =>
                `<tr><td>${d.kind}</td><td class="mono">${escapeHtml(d.url)}</td><td>${badge(d.status)}</td><td>${d.attempts}</td><td>${escapeHtml(d.lastError ?? '')}</td></tr>`,
            )
            .join('')
        : '<tr><td colspan="5" class="muted">No deliveries yet.</td></tr>'
    }</table></div></div>`,
    true,
  );
}

/**
 * The human side of the sandbox: the payer page (playing the player's bank app) and an overview
 * where the tester settles payouts. They run on the sandbox's loopback listener only.
 */
export function registerPages(app: FastifyInstance, psp: Psp): void {
  const notFound = (reply: FastifyReply) =>
    html(
      reply,
      404,
      layout(
        'Not found',
        '<div class="card"><h2>Charge not found</h2><p class="muted">Check the link.</p></div>',
      ),
    );

  app.get('/', async (_request, reply) => html(reply, 200, adminPage(psp)));

  app.get<{ Params: { txid: string } }>('/pay/:txid', async (request, reply) => {
    const charge = TXID.test(request.params.txid) ? await psp.getCharge(request.params.txid) : null;
    if (!charge) return notFound(reply);
    const devedor = charge.devedor && 'cpf' in charge.devedor ? charge.devedor : null;
    return html(
      reply,
      200,
      await payerPage(psp, charge, {
        nome: devedor?.nome ?? DEMO_PAYER_NAME,
        cpf: devedor?.cpf ?? DEMO_PAYER_CPF,
      }),
    );
  });

  app.post<{ Params: { txid: string } }>('/pay/:txid', async (request, reply) => {
    const charge = TXID.test(request.params.txid) ? await psp.getCharge(request.params.txid) : null;
    if (!charge) return notFound(reply);
    const form = readForm(request.body);
    const nome = (form.get('nome') ?? '').trim().slice(0, 200);
    const cpf = (form.get('cpf') ?? '').replace(/[.\-\s]/g, '').slice(0, 20);
    const infoPagador = (form.get('infoPagador') ?? '').trim().slice(0, 140);
    let error: string | null = null;
    if (nome.length === 0 || nome.length > 140) error = 'Enter the payer name (up to 140 characters).';
    else if (!isValidCpf(cpf)) error = 'Enter a valid CPF: 11 digits with correct check digits.';
    if (!error) {
      try {
        await psp.pay(charge.txid, infoPagador ? { nome, cpf, infoPagador } : { nome, cpf });
        return reply.redirect(`/pay/${charge.txid}`, 303);
      } catch (caught) {
        if (!(caught instanceof SandboxError)) throw caught;
        // Expired or already paid: show the page as it now stands.
        return html(reply, 409, await payerPage(psp, charge, { nome, cpf }));
      }
    }
    return html(reply, 422, await payerPage(psp, charge, { nome, cpf, error }));
  });

  app.post<{ Params: { txid: string } }>('/pay/:txid/expire', async (request, reply) => {
    if (!TXID.test(request.params.txid) || !(await psp.getCharge(request.params.txid)))
      return notFound(reply);
    await psp.expireNow(request.params.txid);
    return reply.redirect(`/pay/${request.params.txid}`, 303);
  });

  app.post<{ Params: { id: string; outcome: string } }>(
    '/admin/payouts/:id/:outcome',
    async (request, reply) => {
      const { id, outcome } = request.params;
      if (!PAYOUT_ID.test(id) || (outcome !== 'succeed' && outcome !== 'fail')) return notFound(reply);
      const motivo = readForm(request.body).get('motivo') ?? undefined;
      try {
        await psp.decidePayout(id, outcome, motivo);
      } catch (caught) {
        if (!(caught instanceof SandboxError)) throw caught;
        return html(
          reply,
          caught.kind === 'not_found' ? 404 : 409,
          layout(
            'Payout',
            `<div class="card error">${escapeHtml(caught.message)}</div><p><a href="/">Back</a></p>`,
          ),
        );
      }
      return reply.redirect('/', 303);
    },
  );

  app.post('/admin/settings', async (request, reply) => {
    const mode = readForm(request.body).get('payoutMode');
    if (mode !== 'manual' && mode !== 'succeed' && mode !== 'fail') {
      return html(reply, 400, layout('Settings', '<div class="card error">Unknown payout mode.</div>'));
    }
    await psp.setPayoutMode(mode);
    return reply.redirect('/', 303);
  });
}
