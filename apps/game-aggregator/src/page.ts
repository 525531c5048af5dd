import { formatMinor } from '@sorte/contract';
import { SLOT_LINES, SLOT_PAYS, SLOT_STRIP, SLOT_SYMBOLS } from './games.ts';
import { LOCALE, TEXTS, type TLang } from './i18n.ts';
import type { TSession } from './play.ts';
import { slotRtp, TABLE_RTP } from './rtp.ts';

/**
 * The game page: one self-contained HTML document (inline CSS and script under a nonce, artwork
 * drawn as SVG in code, no outside assets), mobile first. The theme (colours) comes from the game
 * code, so each of the catalogue's titles looks like its own game on the same engine. All outcome
 * logic stays on the server; the page only animates what /play answered.
 */

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** A JSON literal safe inside a <script> element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** A stable hue per game code, so every title has its own colours. */
export function hueOf(code: string): number {
  let hash = 0;
  for (const char of code) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % 360;
}

/** A small emblem per catalogue category, drawn in code (no outside artwork). */
const EMBLEMS: Record<string, string> = {
  slots:
    '<path d="M30 20h40v60H30z" rx="6" fill="none" stroke="currentColor" stroke-width="6"/><path d="M42 40h16l-10 24" fill="none" stroke="currentColor" stroke-width="6" stroke-linecap="round"/>',
  fish: '<path d="M12 50c18-22 48-22 62 0-14 22-44 22-62 0z" fill="currentColor"/><path d="M74 50l16-14v28z" fill="currentColor"/><circle cx="30" cy="46" r="4" fill="#000"/>',
  arcade:
    '<rect x="14" y="34" width="72" height="38" rx="18" fill="currentColor"/><circle cx="64" cy="48" r="5" fill="#000"/><circle cx="74" cy="58" r="5" fill="#000"/><path d="M28 53h16M36 45v16" stroke="#000" stroke-width="5"/>',
  crash:
    '<path d="M50 10c16 12 20 34 14 54H36c-6-20-2-42 14-54z" fill="currentColor"/><path d="M36 64l-10 16 16-6M64 64l10 16-16-6" fill="currentColor"/><circle cx="50" cy="36" r="7" fill="#000"/>',
  bingo:
    '<circle cx="50" cy="50" r="36" fill="currentColor"/><circle cx="50" cy="50" r="20" fill="#fff"/><text x="50" y="58" text-anchor="middle" font-size="22" font-weight="800" fill="#000" font-family="sans-serif">75</text>',
  lottery:
    '<circle cx="50" cy="50" r="36" fill="currentColor"/><circle cx="50" cy="50" r="20" fill="#fff"/><text x="50" y="58" text-anchor="middle" font-size="22" font-weight="800" fill="#000" font-family="sans-serif">7</text>',
  sports:
    '<circle cx="50" cy="50" r="36" fill="currentColor"/><path d="M50 30l16 12-6 19H40l-6-19z" fill="#000"/>',
  video_game:
    '<path d="M22 36h56c8 0 12 8 12 18s-4 18-12 18c-8 0-12-8-18-8H40c-6 0-10 8-18 8-8 0-12-8-12-18s4-18 12-18z" fill="currentColor"/><path d="M28 52h14M35 45v14" stroke="#000" stroke-width="5"/>',
  live_casino:
    '<circle cx="50" cy="50" r="36" fill="none" stroke="currentColor" stroke-width="8"/><circle cx="50" cy="50" r="8" fill="currentColor"/><path d="M50 14v14M50 72v14M14 50h14M72 50h14" stroke="currentColor" stroke-width="6"/>',
  card: '<rect x="26" y="14" width="48" height="72" rx="8" fill="currentColor"/><path d="M50 34c8-12 22 2 0 22-22-20-8-34 0-22z" fill="#000"/>',
};

export const emblemOf = (category: string) =>
  `<svg class="emblem" viewBox="0 0 100 100" aria-hidden="true">${EMBLEMS[category] ?? EMBLEMS.slots}</svg>`;

/** Bet steps offered by the page: the usual chip values inside the game's limits. */
export function betSteps(minMinor: bigint, maxMinor: bigint): bigint[] {
  const chips = [20n, 50n, 100n, 200n, 500n, 1_000n, 2_000n, 5_000n, 10_000n, 20_000n, 50_000n, 100_000n];
  const steps = chips.filter((chip) => chip >= minMinor && chip <= maxMinor);
  return steps.length > 0 ? steps : [minMinor - (minMinor % 10n) || 10n];
}

export function renderGamePage(session: TSession, nonce: string): string {
  const t = TEXTS[session.lang];
  const hue = hueOf(session.game.code);
  const steps = betSteps(session.minBetMinor, session.maxBetMinor).map(formatMinor);
  const boot = {
    session: session.id,
    kind: session.kind,
    mode: session.mode,
    locale: LOCALE[session.lang],
    balance: formatMinor(session.balanceMinor),
    steps,
    symbols: SLOT_SYMBOLS,
    strip: SLOT_STRIP,
    lines: SLOT_LINES,
    t,
  };
  const rtp = session.kind === 'slot' ? slotRtp() : TABLE_RTP.banker;
  const paytable =
    session.kind === 'slot'
      ? `<table class="pay"><tbody>${SLOT_SYMBOLS.map(
          (_symbol, index) =>
            `<tr><td><span class="sym sym-sm" data-symbol="${index}"></span></td>${SLOT_PAYS[index]!.map(
              (pay, n) => `<td><small>${n + 3}×</small> ${pay}</td>`,
            ).join('')}</tr>`,
        ).join('')}</tbody></table>`
      : `<table class="pay"><tbody>
          <tr><td>${escapeHtml(t.player)}</td><td>1:1</td><td>${TABLE_RTP.player.toFixed(2)}%</td></tr>
          <tr><td>${escapeHtml(t.banker)}</td><td>0.95:1</td><td>${TABLE_RTP.banker.toFixed(2)}%</td></tr>
          <tr><td>${escapeHtml(t.tie)}</td><td>8:1</td><td>${TABLE_RTP.tie.toFixed(2)}%</td></tr>
        </tbody></table>`;
  const stage =
    session.kind === 'slot'
      ? `<section class="reels" id="reels" aria-label="${escapeHtml(session.game.name)}">${Array.from(
          { length: 5 },
          (_, reel) =>
            `<div class="reel" data-reel="${reel}">${Array.from(
              { length: 3 },
              (_, row) =>
                `<div class="cell" data-row="${row}"><span class="sym" data-symbol="${SLOT_STRIP[(reel * 7 + row) % SLOT_STRIP.length]}"></span></div>`,
            ).join('')}</div>`,
        ).join('')}</section>`
      : `<section class="table" id="table">
          <div class="hand" id="hand-player"><h2>${escapeHtml(t.player)} <b id="pts-player"></b></h2><div class="cards"></div></div>
          <div class="hand" id="hand-banker"><h2>${escapeHtml(t.banker)} <b id="pts-banker"></b></h2><div class="cards"></div></div>
          <div class="sides" role="radiogroup" aria-label="${escapeHtml(t.choose_side)}">
            <button type="button" class="side" data-side="player" data-testid="agg-side-player">${escapeHtml(t.player)}<small>1:1</small></button>
            <button type="button" class="side" data-side="tie" data-testid="agg-side-tie">${escapeHtml(t.tie)}<small>8:1</small></button>
            <button type="button" class="side" data-side="banker" data-testid="agg-side-banker">${escapeHtml(t.banker)}<small>0.95:1</small></button>
          </div>
        </section>`;
  return `<!doctype html>
<html lang="${LOCALE[session.lang]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<title>${escapeHtml(session.game.name)} · ${escapeHtml(session.game.brand)}</title>
<style>${css(hue)}</style>
</head>
<body>
<main class="g" data-kind="${session.kind}">
  <header class="top">
    <div class="name">${emblemOf(session.game.category)}<div><p class="brand">${escapeHtml(session.game.brand)}</p><h1>${escapeHtml(session.game.name)}</h1></div></div>
    <span class="mode ${session.mode}">${escapeHtml(session.mode === 'demo' ? t.fun_money : t.real_money)}</span>
  </header>
  ${stage}
  <p class="msg" id="msg" role="status" aria-live="polite" data-testid="agg-message"></p>
  <section class="controls">
    <div class="stat"><small>${escapeHtml(t.balance)}</small><strong id="balance" data-testid="agg-balance">${formatMinor(session.balanceMinor)}</strong></div>
    <div class="stat"><small>${escapeHtml(t.win)}</small><strong id="win" data-testid="agg-win">0.00</strong></div>
    <div class="bet">
      <button type="button" id="minus" aria-label="−">−</button>
      <div><small>${escapeHtml(t.bet)}</small><strong id="bet" data-testid="agg-bet"></strong></div>
      <button type="button" id="plus" aria-label="+">+</button>
    </div>
    <button type="button" class="go" id="go" data-testid="agg-spin">${escapeHtml(session.kind === 'slot' ? t.spin : t.deal)}</button>
  </section>
  <details class="info">
    <summary>${escapeHtml(t.rules)} · ${escapeHtml(t.paytable)}</summary>
    <p>${escapeHtml(session.kind === 'slot' ? t.rules_slot : t.rules_table)}</p>
    ${paytable}
    <p class="rtp">${escapeHtml(t.rtp)}: ${rtp.toFixed(2)}%${session.kind === 'slot' ? ` · 10 ${escapeHtml(t.lines)}` : ''}</p>
  </details>
</main>
<script nonce="${nonce}">const BOOT = ${scriptJson(boot)};
${script()}</script>
</body>
</html>`;
}

/** A small translated page for a link whose session is gone. */
export function renderMissingPage(lang: TLang): string {
  const t = TEXTS[lang];
  return `<!doctype html><html lang="${LOCALE[lang]}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(t.rules)}</title><style>${css(220)}</style></head><body><main class="g"><p class="msg show err">${escapeHtml(t.unknown_session)}</p></main></body></html>`;
}

function css(hue: number): string {
  return `
:root{--h:${hue};--bg1:hsl(var(--h) 55% 10%);--bg2:hsl(calc(var(--h) + 40) 60% 18%);--acc:hsl(var(--h) 90% 62%);
--acc2:hsl(calc(var(--h) + 180) 85% 60%);--ink:#f5f3ff;--mute:hsl(var(--h) 20% 72%);--card:hsl(var(--h) 40% 14% / .85)}
*{box-sizing:border-box}html,body{margin:0;height:100%}
body{font:15px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC","Noto Sans Thai",sans-serif;color:var(--ink);
background:radial-gradient(120% 80% at 50% 0%,var(--bg2),var(--bg1) 70%);overflow-x:hidden}
.g{max-width:760px;margin:0 auto;padding:12px 12px calc(16px + env(safe-area-inset-bottom));display:flex;flex-direction:column;gap:12px;min-height:100%}
.top{display:flex;align-items:center;justify-content:space-between;gap:8px}
.top h1{margin:0;font-size:1.35rem;letter-spacing:.02em;text-shadow:0 2px 12px hsl(var(--h) 90% 50% / .5)}
.name{display:flex;align-items:center;gap:10px}.emblem{width:40px;height:40px;flex:none;color:var(--acc);filter:drop-shadow(0 2px 6px hsl(var(--h) 90% 50% / .6))}
.brand{margin:0;font-size:.72rem;text-transform:uppercase;letter-spacing:.16em;color:var(--acc)}
.mode{font-size:.72rem;padding:4px 10px;border-radius:999px;border:1px solid var(--acc);color:var(--acc);white-space:nowrap}
.mode.demo{border-color:var(--acc2);color:var(--acc2)}
.reels{display:grid;grid-template-columns:repeat(5,1fr);gap:6px;padding:10px;border-radius:18px;
background:linear-gradient(180deg,hsl(var(--h) 50% 8%),hsl(var(--h) 45% 16%));box-shadow:inset 0 0 0 2px hsl(var(--h) 80% 55% / .5),0 12px 40px #0008}
.reel{display:grid;grid-template-rows:repeat(3,1fr);gap:6px;overflow:hidden;border-radius:12px}
.cell{aspect-ratio:1;display:grid;place-items:center;border-radius:12px;background:radial-gradient(circle at 50% 35%,hsl(var(--h) 35% 26%),hsl(var(--h) 40% 12%));transition:box-shadow .2s,transform .2s}
.cell.hit{box-shadow:0 0 0 3px var(--acc),0 0 18px var(--acc);transform:scale(1.04)}
.sym{display:block;width:78%;height:78%}.sym svg{width:100%;height:100%;display:block;filter:drop-shadow(0 3px 4px #0009)}
.sym-sm{width:28px;height:28px;display:inline-block}
.reel.spin .sym{animation:blur .12s linear infinite}
@keyframes blur{0%{transform:translateY(-30%);opacity:.55}100%{transform:translateY(30%);opacity:.55}}
.reel.stop .cell{animation:land .28s ease-out}
@keyframes land{0%{transform:translateY(-12%)}60%{transform:translateY(4%)}100%{transform:none}}
.table{display:grid;gap:10px;padding:12px;border-radius:18px;background:radial-gradient(120% 90% at 50% 0%,hsl(150 45% 24%),hsl(150 55% 10%));
box-shadow:inset 0 0 0 3px hsl(45 70% 45% / .6),0 12px 40px #0008}
.hand h2{margin:0 0 6px;font-size:.9rem;text-transform:uppercase;letter-spacing:.12em;color:hsl(45 80% 70%)}
.hand h2 b{color:var(--ink);font-size:1.1rem;margin-left:6px}
.cards{display:flex;gap:8px;min-height:88px}
.card{width:60px;height:86px;border-radius:8px;background:#fdfcf7;color:#1a1a1a;display:flex;flex-direction:column;justify-content:space-between;
padding:6px;font-weight:700;box-shadow:0 4px 10px #0007;animation:deal .35s ease-out both}
.card.red{color:#c0182b}.card .c{font-size:1.6rem;text-align:center}
@keyframes deal{from{transform:translateY(-30px) rotate(-8deg);opacity:0}to{transform:none;opacity:1}}
.sides{display:grid;grid-template-columns:repeat(3,1fr);gap:8px}
.side{padding:12px 6px;border-radius:12px;border:2px solid hsl(45 70% 55% / .5);background:hsl(150 40% 14%);color:var(--ink);font:inherit;font-weight:700;cursor:pointer;display:grid;gap:2px}
.side small{color:hsl(45 80% 70%);font-weight:500}.side[aria-checked=true]{border-color:hsl(45 90% 60%);background:hsl(45 60% 28%);box-shadow:0 0 14px hsl(45 90% 60% / .6)}
.side.won{outline:3px solid #7dffb0}
.msg{min-height:1.4em;margin:0;text-align:center;font-weight:600;opacity:0;transition:opacity .2s}
.msg.show{opacity:1}.msg.err{color:#ffb4b4}.msg.good{color:#9dffc8;font-size:1.15rem}
.controls{display:grid;grid-template-columns:1fr 1fr;gap:10px;align-items:stretch}
.stat,.bet{background:var(--card);border-radius:14px;padding:8px 12px;display:flex;flex-direction:column;justify-content:center;border:1px solid hsl(var(--h) 60% 50% / .25)}
.stat small,.bet small{color:var(--mute);font-size:.72rem;text-transform:uppercase;letter-spacing:.08em}
.stat strong,.bet strong{font-size:1.15rem;font-variant-numeric:tabular-nums}
.bet{flex-direction:row;align-items:center;justify-content:space-between;gap:6px;text-align:center}
.bet>div{display:grid;gap:2px}
.bet button{width:40px;height:40px;border-radius:50%;border:0;background:hsl(var(--h) 50% 30%);color:var(--ink);font-size:1.4rem;cursor:pointer}
.go{border:0;border-radius:14px;font:inherit;font-size:1.2rem;font-weight:800;letter-spacing:.06em;text-transform:uppercase;color:#1b1030;cursor:pointer;
background:linear-gradient(180deg,hsl(var(--h) 95% 72%),hsl(var(--h) 90% 52%));box-shadow:0 6px 0 hsl(var(--h) 70% 30%),0 10px 24px #0008;min-height:56px}
.go:active{transform:translateY(3px);box-shadow:0 3px 0 hsl(var(--h) 70% 30%)}.go:disabled{filter:grayscale(.6) brightness(.8);cursor:wait}
button:focus-visible{outline:3px solid var(--acc2);outline-offset:2px}
.info{background:var(--card);border-radius:14px;padding:10px 14px}.info summary{cursor:pointer;font-weight:700}
.pay{width:100%;border-collapse:collapse;font-variant-numeric:tabular-nums}.pay td{padding:4px;border-top:1px solid #fff1}.pay small{color:var(--mute)}
.rtp{color:var(--mute);font-size:.85rem}
@media (min-width:700px){.g{padding-top:24px}.controls{grid-template-columns:1fr 1fr 1.3fr 1.2fr}.top h1{font-size:1.8rem}}
@media (prefers-reduced-motion:reduce){*{animation:none!important;transition:none!important}}
`;
}

/** The page's behaviour: bet steps, the play call, reel/card animation, messages, balance to the parent. */
function script(): string {
  return `
(() => {
  const $ = (id) => document.getElementById(id);
  const t = BOOT.t;
  const money = new Intl.NumberFormat(BOOT.locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const show = (text) => money.format(Number(text));
  const hue = getComputedStyle(document.documentElement).getPropertyValue('--h').trim();
  const ART = {
    crown: (a, b, i) => '<path d="M10 70 L18 30 L38 52 L50 20 L62 52 L82 30 L90 70 Z" fill="url(#g' + i + ')" stroke="' + b + '" stroke-width="4"/><rect x="10" y="72" width="80" height="12" rx="4" fill="' + b + '"/><circle cx="50" cy="20" r="6" fill="#fff"/>',
    diamond: (a, b, i) => '<path d="M50 12 L86 42 L50 90 L14 42 Z" fill="url(#g' + i + ')" stroke="#fff" stroke-width="3"/><path d="M14 42 H86 M50 12 L36 42 L50 90 L64 42 Z" fill="none" stroke="#ffffff99" stroke-width="2"/>',
    seven: (a, b, i) => '<path d="M20 18 H82 L48 88 H30 L60 34 H20 Z" fill="url(#g' + i + ')" stroke="' + b + '" stroke-width="4" stroke-linejoin="round"/>',
    bell: (a, b, i) => '<path d="M50 14 C30 14 26 36 26 52 L18 72 H82 L74 52 C74 36 70 14 50 14 Z" fill="url(#g' + i + ')" stroke="' + b + '" stroke-width="4"/><circle cx="50" cy="80" r="8" fill="' + b + '"/>',
    star: (a, b, i) => '<path d="M50 10 L61 38 L91 39 L67 58 L76 88 L50 70 L24 88 L33 58 L9 39 L39 38 Z" fill="url(#g' + i + ')" stroke="' + b + '" stroke-width="3" stroke-linejoin="round"/>',
    clover: (a, b, i) => '<g fill="url(#g' + i + ')" stroke="' + b + '" stroke-width="3"><circle cx="50" cy="30" r="17"/><circle cx="30" cy="52" r="17"/><circle cx="70" cy="52" r="17"/></g><path d="M50 52 Q52 78 64 90" stroke="' + b + '" stroke-width="6" fill="none"/>',
    coin: (a, b, i) => '<circle cx="50" cy="50" r="36" fill="url(#g' + i + ')" stroke="' + b + '" stroke-width="5"/><text x="50" y="63" text-anchor="middle" font-size="38" font-weight="800" fill="' + b + '" font-family="sans-serif">$</text>',
  };
  const COLORS = [[45, 95], [190, 90], [0, 85], [40, 90], [280, 80], [130, 70], [30, 85]];
  const svg = (index) => {
    const [dh, sat] = COLORS[index];
    // Crown, bell and coin stay gold on every theme; the other symbols take the game's colours.
    const h = index === 0 || index === 3 || index === 6 ? 45 : (Number(hue) + dh) % 360;
    const a = 'hsl(' + h + ' ' + sat + '% 62%)';
    const b = 'hsl(' + h + ' ' + sat + '% 28%)';
    return '<svg viewBox="0 0 100 100" aria-hidden="true"><defs><linearGradient id="g' + index + '" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(' + h + ' ' + sat + '% 80%)"/><stop offset="1" stop-color="' + a + '"/></linearGradient></defs>' + ART[BOOT.symbols[index]](a, b, index) + '</svg>';
  };
  const paint = (el) => { el.innerHTML = svg(Number(el.dataset.symbol)); };
  document.querySelectorAll('.sym').forEach(paint);

  let step = Math.min(2, BOOT.steps.length - 1);
  let balance = BOOT.balance;
  let side = null;
  let busy = false;
  const render = () => { $('bet').textContent = show(BOOT.steps[step]); $('balance').textContent = show(balance); };
  const say = (text, tone) => { const m = $('msg'); m.textContent = text || ''; m.className = 'msg' + (text ? ' show' : '') + (tone ? ' ' + tone : ''); };
  const tell = () => { try { parent.postMessage({ type: 'sorte:game', event: 'balance', balance: balance, mode: BOOT.mode }, '*'); } catch (e) {} };
  $('minus').onclick = () => { if (!busy && step > 0) { step -= 1; render(); } };
  $('plus').onclick = () => { if (!busy && step < BOOT.steps.length - 1) { step += 1; render(); } };
  document.querySelectorAll('.side').forEach((button) => {
    button.setAttribute('role', 'radio'); button.setAttribute('aria-checked', 'false');
    button.onclick = () => { side = button.dataset.side; document.querySelectorAll('.side').forEach((b) => b.setAttribute('aria-checked', String(b === button))); say(''); };
  });
  const wait = (ms) => new Promise((r) => setTimeout(r, ms));
  const call = async (path, body) => {
    const response = await fetch('/api/v1/sessions/' + encodeURIComponent(BOOT.session) + path, {
      method: body ? 'POST' : 'GET', headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined,
    });
    return response.json();
  };

  const reels = Array.from(document.querySelectorAll('.reel'));
  let spinner = null;
  const startReels = () => {
    reels.forEach((reel) => { reel.classList.remove('stop'); reel.classList.add('spin'); });
    document.querySelectorAll('.cell').forEach((c) => c.classList.remove('hit'));
    spinner = setInterval(() => {
      reels.forEach((reel) => { if (!reel.classList.contains('spin')) return; reel.querySelectorAll('.sym').forEach((s) => { s.dataset.symbol = BOOT.strip[Math.floor(Math.random() * BOOT.strip.length)]; paint(s); }); });
    }, 90);
  };
  const stopReels = async (grid) => {
    for (let r = 0; r < reels.length; r += 1) {
      await wait(grid ? 160 : 0);
      const reel = reels[r];
      reel.classList.remove('spin');
      if (grid) { reel.querySelectorAll('.sym').forEach((s, row) => { s.dataset.symbol = grid[r][row]; paint(s); }); reel.classList.add('stop'); }
    }
    clearInterval(spinner);
  };
  const RANKS = ['A','2','3','4','5','6','7','8','9','10','J','Q','K'];
  const SUITS = ['\\u2660','\\u2665','\\u2666','\\u2663'];
  const card = (c) => '<div class="card' + (c.suit === 1 || c.suit === 2 ? ' red' : '') + '"><span>' + RANKS[c.rank] + '</span><span class="c">' + SUITS[c.suit] + '</span><span></span></div>';
  const dealCards = async (table) => {
    const p = document.querySelector('#hand-player .cards'); const b = document.querySelector('#hand-banker .cards');
    p.innerHTML = ''; b.innerHTML = ''; $('pts-player').textContent = ''; $('pts-banker').textContent = '';
    document.querySelectorAll('.side').forEach((s) => s.classList.remove('won'));
    const order = [[p, table.player[0]], [b, table.banker[0]], [p, table.player[1]], [b, table.banker[1]]];
    if (table.player[2]) order.push([p, table.player[2]]);
    if (table.banker[2]) order.push([b, table.banker[2]]);
    for (const [hand, c] of order) { hand.insertAdjacentHTML('beforeend', card(c)); await wait(260); }
    $('pts-player').textContent = table.playerPoints; $('pts-banker').textContent = table.bankerPoints;
    document.querySelector('.side[data-side="' + table.winner + '"]').classList.add('won');
  };

  $('go').onclick = async () => {
    if (busy) return;
    if (BOOT.kind === 'table' && !side) { say(t.choose_side, 'err'); return; }
    busy = true; $('go').disabled = true; say('');
    if (BOOT.kind === 'slot') startReels();
    let answer;
    try { answer = await call('/play', { bet: BOOT.steps[step], side: side || undefined }); }
    catch (e) { answer = { ok: false, message: t.provider_error }; }
    if (answer.ok) {
      if (BOOT.kind === 'slot') {
        await stopReels(answer.outcome.slot.grid);
        for (const w of answer.outcome.slot.wins) BOOT.lines[w.line].slice(0, w.count).forEach((row, reel) => reels[reel].children[row].classList.add('hit'));
      } else { await dealCards(answer.outcome.table); }
      balance = answer.balance; $('win').textContent = show(answer.win);
      if (answer.notice) say(answer.message, 'good');
      else if (Number(answer.win) > 0) say(t.you_won.replace('{amount}', show(answer.win)), 'good');
      else say(t.no_win);
    } else {
      if (BOOT.kind === 'slot') await stopReels(null);
      if (answer.balance) balance = answer.balance;
      // A session the aggregator no longer knows (it restarted) cannot name its language: use ours.
      say(answer.error === 'unknown_session' ? t.unknown_session : answer.message || t.provider_error, 'err');
    }
    render(); tell(); busy = false; $('go').disabled = false;
  };

  render();
  call('/state').then((state) => { if (state && state.balance) { balance = state.balance; render(); } if (state && state.message) say(state.message, 'err'); tell(); }).catch(() => tell());
})();
`;
}
