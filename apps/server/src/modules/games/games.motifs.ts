import type { TGameCategory } from '@sorte/contract';

/**
 * The motif of each game's artwork: a small vector scene in a 200 × 200 box, drawn with the
 * artwork's shared gradients (`#hi` light, `#mid` body, `#lo` shade, `#gold`, `#glow`) so every
 * motif is lit from the top left and casts the same shadow. In-house games have their own; a
 * third-party title gets the motif its name is about (a macaw, lanterns, a koi…), else one from
 * its category.
 */

const M = {
  rocket: `<g transform="rotate(35 100 100)"><path d="M100 18c26 22 34 58 28 100H72c-6-42 2-78 28-100Z" fill="url(#hi)"/><path d="M100 18c10 8 17 19 22 32H78c5-13 12-24 22-32Z" fill="url(#accent)"/><circle cx="100" cy="76" r="14" fill="#1d2a44" stroke="#bfe8ff" stroke-width="5"/><path d="M72 100 50 138l24-8zM128 100l22 38-24-8z" fill="url(#accent)"/><path d="M84 120h32c0 22-8 40-16 52-8-12-16-30-16-52Z" fill="url(#flame)"/></g>`,
  dice: `<g><rect x="26" y="70" width="84" height="84" rx="18" fill="url(#hi)" transform="rotate(-14 68 112)"/><g fill="#1d2a44" transform="rotate(-14 68 112)"><circle cx="48" cy="92" r="8"/><circle cx="68" cy="112" r="8"/><circle cx="88" cy="132" r="8"/></g><rect x="92" y="40" width="84" height="84" rx="18" fill="url(#mid)" transform="rotate(12 134 82)"/><g fill="#fff" transform="rotate(12 134 82)"><circle cx="114" cy="62" r="8"/><circle cx="154" cy="62" r="8"/><circle cx="114" cy="102" r="8"/><circle cx="154" cy="102" r="8"/></g></g>`,
  limbo: `<g><circle cx="100" cy="108" r="70" fill="none" stroke="url(#mid)" stroke-width="14"/><circle cx="100" cy="108" r="44" fill="none" stroke="url(#hi)" stroke-width="12"/><circle cx="100" cy="108" r="16" fill="url(#accent)"/><path d="M40 170 166 40" stroke="url(#gold)" stroke-width="10" stroke-linecap="round"/><path d="M170 30l6 34-34-6z" fill="url(#gold)"/></g>`,
  mines: `<g><g fill="url(#mid)" opacity=".55"><rect x="20" y="20" width="44" height="44" rx="10"/><rect x="78" y="20" width="44" height="44" rx="10"/><rect x="136" y="20" width="44" height="44" rx="10"/><rect x="20" y="78" width="44" height="44" rx="10"/><rect x="136" y="136" width="44" height="44" rx="10"/><rect x="20" y="136" width="44" height="44" rx="10"/></g><path d="M100 66l34 22-34 56-34-56z" fill="url(#gem)"/><path d="M66 88h68M100 66 86 88l14 56 14-56z" fill="none" stroke="#fff" stroke-opacity=".6" stroke-width="3"/><circle cx="152" cy="100" r="22" fill="#1d2a44"/><path d="M160 78l10-12" stroke="url(#gold)" stroke-width="5"/><circle cx="172" cy="62" r="6" fill="url(#flame)"/></g>`,
  plinko: `<g fill="url(#hi)">${[0, 1, 2, 3, 4, 5]
    .flatMap((row) =>
      Array.from(
        { length: row + 1 },
        (_, i) => `<circle cx="${100 - row * 14 + i * 28}" cy="${40 + row * 24}" r="5"/>`,
      ),
    )
    .join(
      '',
    )}<circle cx="114" cy="84" r="12" fill="url(#gold)"/><rect x="24" y="176" width="152" height="14" rx="7" fill="url(#accent)"/></g>`,
  keno: `<g>${[0, 1, 2, 3]
    .flatMap((r) => [0, 1, 2, 3].map((c) => ({ r, c })))
    .map(
      ({ r, c }) =>
        `<circle cx="${40 + c * 40}" cy="${40 + r * 40}" r="16" fill="${(r * 4 + c) % 5 === 1 ? 'url(#gold)' : 'url(#hi)'}" opacity="${(r * 4 + c) % 5 === 1 ? 1 : 0.45}"/>`,
    )
    .join('')}</g>`,
  roulette: `<g><circle cx="100" cy="100" r="84" fill="url(#gold)"/><circle cx="100" cy="100" r="72" fill="#1d2a44"/>${Array.from(
    { length: 18 },
    (_, i) =>
      `<path d="M100 100 L${100 + 72 * Math.cos((i * 20 * Math.PI) / 180)} ${100 + 72 * Math.sin((i * 20 * Math.PI) / 180)} A72 72 0 0 1 ${100 + 72 * Math.cos(((i + 1) * 20 * Math.PI) / 180)} ${100 + 72 * Math.sin(((i + 1) * 20 * Math.PI) / 180)}Z" fill="${i === 0 ? '#1fa35b' : i % 2 ? '#d33' : '#222'}"/>`,
  ).join(
    '',
  )}<circle cx="100" cy="100" r="30" fill="url(#gold)"/><circle cx="100" cy="100" r="10" fill="url(#hi)"/><circle cx="142" cy="52" r="8" fill="#fff"/></g>`,
  reels: `<g><rect x="18" y="40" width="164" height="120" rx="20" fill="url(#lo)"/>${[0, 1, 2]
    .map((i) => `<rect x="${30 + i * 50}" y="52" width="40" height="96" rx="8" fill="#fff"/>`)
    .join(
      '',
    )}<text x="50" y="116" font-size="40" font-weight="900" text-anchor="middle" fill="#d22">7</text><circle cx="100" cy="102" r="12" fill="#d22"/><circle cx="92" cy="112" r="10" fill="#b01"/><path d="M100 90c4-10 12-14 18-14" stroke="#1a8a3a" stroke-width="4" fill="none"/><path d="M150 84l8 16 18 2-13 12 4 18-17-9-16 9 4-18-13-12 18-2z" fill="url(#gold)"/></g>`,
  cards: `<g><rect x="40" y="36" width="80" height="116" rx="12" fill="url(#hi)" transform="rotate(-14 80 94)"/><rect x="80" y="44" width="80" height="116" rx="12" fill="#fff" stroke="#1d2a44" stroke-width="3" transform="rotate(10 120 102)"/><text x="120" y="118" font-size="44" font-weight="900" text-anchor="middle" fill="#d22" transform="rotate(10 120 102)">A</text><path d="M120 128l10 12-10 12-10-12z" fill="#d22" transform="rotate(10 120 102)"/></g>`,
  hilo: `<g><rect x="56" y="40" width="88" height="124" rx="12" fill="#fff" stroke="#1d2a44" stroke-width="3"/><text x="100" y="118" font-size="52" font-weight="900" text-anchor="middle" fill="#1d2a44">K</text><path d="M22 92l20-28 20 28z" fill="url(#accent)"/><path d="M138 108l20 28 20-28z" fill="url(#gold)"/></g>`,
  bingo: `<g><rect x="30" y="30" width="120" height="140" rx="14" fill="#fff"/>${[0, 1, 2, 3]
    .flatMap((r) => [0, 1, 2].map((c) => ({ r, c })))
    .map(
      ({ r, c }) =>
        `<circle cx="${60 + c * 30}" cy="${66 + r * 28}" r="10" fill="${(r + c) % 3 === 0 ? 'url(#accent)' : '#e6e9f2'}"/>`,
    )
    .join(
      '',
    )}<circle cx="152" cy="150" r="30" fill="url(#gold)"/><text x="152" y="160" font-size="26" font-weight="900" text-anchor="middle" fill="#1d2a44">75</text></g>`,
  macaw: `<g><path d="M70 150c-10-50 10-100 58-110 24 10 30 40 18 62-10 20-34 30-46 60z" fill="url(#accent)"/><path d="M128 40c20 2 34 16 30 30-10-6-22-6-30-2z" fill="url(#gold)"/><circle cx="124" cy="62" r="7" fill="#fff"/><circle cx="125" cy="62" r="3" fill="#1d2a44"/><path d="M70 150 52 190M84 142l-6 48M96 128l6 56" stroke="url(#mid)" stroke-width="12" stroke-linecap="round"/><path d="M98 92c-16 14-24 34-22 54 18-8 32-26 36-48z" fill="#2f7de1"/></g>`,
  fruits: `<g><circle cx="76" cy="120" r="38" fill="#ff8a00"/><circle cx="64" cy="106" r="10" fill="#fff" opacity=".35"/><ellipse cx="134" cy="122" rx="36" ry="28" fill="#ffd60a"/><circle cx="104" cy="72" r="22" fill="#d22"/><circle cx="132" cy="64" r="20" fill="#b01"/><path d="M104 50c6-20 20-28 34-30M132 44c0-10 4-20 6-24" stroke="#1a8a3a" stroke-width="5" fill="none"/><path d="M138 20c12 0 22 6 26 14-12 2-22-2-26-14z" fill="#2fb45a"/></g>`,
  chest: `<g><path d="M30 90h140v70a12 12 0 0 1-12 12H42a12 12 0 0 1-12-12z" fill="url(#wood)"/><path d="M30 90c0-30 30-50 70-50s70 20 70 50z" fill="url(#wood)"/><path d="M30 90h140" stroke="url(#gold)" stroke-width="10"/><rect x="88" y="82" width="24" height="32" rx="4" fill="url(#gold)"/><circle cx="60" cy="52" r="10" fill="url(#gold)"/><circle cx="144" cy="56" r="8" fill="url(#gold)"/><path d="M100 20l6 14 14 2-10 10 2 14-12-8-12 8 2-14-10-10 14-2z" fill="#fff" opacity=".85"/></g>`,
  lantern: `<g>${[0, 1]
    .map(
      (i) =>
        `<g transform="translate(${i * 70} ${i * 26})"><path d="M58 14v18" stroke="url(#gold)" stroke-width="4"/><rect x="42" y="30" width="32" height="10" rx="3" fill="url(#gold)"/><ellipse cx="58" cy="86" rx="38" ry="48" fill="#e0302a"/><ellipse cx="58" cy="86" rx="18" ry="48" fill="none" stroke="#ff8a6a" stroke-width="3"/><ellipse cx="48" cy="70" rx="8" ry="16" fill="#fff" opacity=".3"/><rect x="42" y="132" width="32" height="10" rx="3" fill="url(#gold)"/><path d="M52 142v20M58 142v24M64 142v20" stroke="url(#gold)" stroke-width="3"/></g>`,
    )
    .join('')}</g>`,
  dragon: `<g><path d="M30 150c20-60 60-20 80-60s50-50 70-30c-20-4-30 4-36 14 18 0 26 12 24 22-14-10-30-6-40 8-20 30-60 10-98 46z" fill="url(#accent)"/><circle cx="160" cy="64" r="5" fill="#fff"/><circle cx="64" cy="80" r="28" fill="url(#pearl)"/><circle cx="56" cy="72" r="8" fill="#fff" opacity=".7"/></g>`,
  pyramid: `<g><circle cx="132" cy="62" r="34" fill="url(#gold)"/>${Array.from(
    { length: 12 },
    (_, i) =>
      `<path d="M132 62 L${132 + 52 * Math.cos((i * 30 * Math.PI) / 180)} ${62 + 52 * Math.sin((i * 30 * Math.PI) / 180)}" stroke="url(#gold)" stroke-width="4" opacity=".6"/>`,
  ).join(
    '',
  )}<path d="M20 176 90 60l70 116z" fill="url(#sand)"/><path d="M90 60l70 116H110z" fill="#000" opacity=".22"/><path d="M76 176h28l-14-30z" fill="#1d2a44" opacity=".6"/></g>`,
  capybara: `<g><ellipse cx="100" cy="124" rx="70" ry="46" fill="#a0673a"/><ellipse cx="140" cy="96" rx="40" ry="32" fill="#b57a46"/><rect x="160" y="90" width="24" height="26" rx="10" fill="#8a5530"/><circle cx="148" cy="84" r="5" fill="#1d2a44"/><ellipse cx="132" cy="66" rx="8" ry="6" fill="#8a5530"/><path d="M60 164v16M90 168v14M130 164v16" stroke="#8a5530" stroke-width="12" stroke-linecap="round"/><ellipse cx="120" cy="60" rx="16" ry="8" fill="url(#accent)"/></g>`,
  coffee: `<g><path d="M40 80h100v50a40 40 0 0 1-40 40h-20a40 40 0 0 1-40-40z" fill="#fff"/><path d="M140 94h12a20 20 0 0 1 0 40h-14" fill="none" stroke="#fff" stroke-width="10"/><ellipse cx="90" cy="82" rx="50" ry="10" fill="#5a3420"/><path d="M70 60c-10-14 10-20 0-36M96 60c-10-14 10-20 0-36M122 60c-10-14 10-20 0-36" stroke="#fff" stroke-opacity=".6" stroke-width="5" fill="none"/><circle cx="156" cy="168" r="18" fill="url(#gold)"/><circle cx="30" cy="160" r="12" fill="url(#gold)"/></g>`,
  koi: `<g><circle cx="100" cy="100" r="80" fill="#1d2a44" opacity=".35"/><path d="M40 120c30-50 80-60 110-30-30 4-40 30-60 40-16 8-34 6-50-10z" fill="#fff"/><path d="M150 90l26-20-6 30 10 24-30-16z" fill="#ff5a36"/><path d="M74 98c10-6 22-6 30 0-8 10-22 12-30 0zM112 114c8-4 16-2 20 4-8 6-16 6-20-4z" fill="#ff5a36"/><circle cx="58" cy="112" r="4" fill="#1d2a44"/><path d="M26 60c30-30 120-40 150 10" stroke="url(#gold)" stroke-width="3" fill="none" opacity=".6"/></g>`,
  viking: `<g><path d="M40 120c0-44 26-70 60-70s60 26 60 70z" fill="url(#steel)"/><rect x="34" y="116" width="132" height="20" rx="8" fill="url(#gold)"/><path d="M44 96c-30-10-36-40-24-66 6 26 20 36 36 40zM156 96c30-10 36-40 24-66-6 26-20 36-36 40z" fill="#f3e6c8"/><path d="M92 50h16v86H92z" fill="url(#gold)" opacity=".8"/><circle cx="60" cy="168" r="14" fill="url(#gold)"/><circle cx="100" cy="176" r="14" fill="url(#gold)"/><circle cx="140" cy="168" r="14" fill="url(#gold)"/></g>`,
  wheel: `<g><circle cx="100" cy="104" r="82" fill="url(#gold)"/>${Array.from(
    { length: 12 },
    (_, i) =>
      `<path d="M100 104 L${100 + 72 * Math.cos((i * 30 * Math.PI) / 180)} ${104 + 72 * Math.sin((i * 30 * Math.PI) / 180)} A72 72 0 0 1 ${100 + 72 * Math.cos(((i + 1) * 30 * Math.PI) / 180)} ${104 + 72 * Math.sin(((i + 1) * 30 * Math.PI) / 180)}Z" fill="${['#e0302a', '#2f7de1', '#1fa35b', '#ffb020'][i % 4]}"/>`,
  ).join('')}<circle cx="100" cy="104" r="16" fill="url(#hi)"/><path d="M100 10l12 26H88z" fill="#fff"/></g>`,
  tower: `<g>${[0, 1, 2, 3, 4]
    .map(
      (i) =>
        `<rect x="${60 + (i % 2) * 6}" y="${150 - i * 30}" width="${80 - i * 6}" height="26" rx="5" fill="url(#${i % 2 ? 'hi' : 'mid'})"/>`,
    )
    .join(
      '',
    )}<path d="M100 6l8 18h-16z" fill="url(#gold)"/><circle cx="100" cy="26" r="6" fill="url(#gold)"/></g>`,
  football: `<g><rect x="20" y="30" width="160" height="100" rx="4" fill="none" stroke="#fff" stroke-width="6"/><path d="M20 60h160M20 100h160M60 30v100M100 30v100M140 30v100" stroke="#fff" stroke-opacity=".25" stroke-width="2"/><circle cx="100" cy="150" r="32" fill="#fff"/><path d="M100 132l14 10-5 16H91l-5-16z" fill="#1d2a44"/><path d="M70 142l16 4M130 142l-16 4M86 176l5-18M114 176l-5-18" stroke="#1d2a44" stroke-width="3"/></g>`,
  balloon: `<g>${[
    [70, 70, '#e0302a'],
    [126, 60, '#2f7de1'],
    [100, 104, '#ffb020'],
  ]
    .map(
      ([x, y, c]) =>
        `<ellipse cx="${x}" cy="${y}" rx="30" ry="36" fill="${c}"/><ellipse cx="${Number(x) - 10}" cy="${Number(y) - 12}" rx="7" ry="11" fill="#fff" opacity=".4"/><path d="M${x} ${Number(y) + 36}q-6 30 6 60" stroke="#fff" stroke-opacity=".7" stroke-width="2" fill="none"/>`,
    )
    .join('')}</g>`,
  chicken: `<g><ellipse cx="100" cy="118" rx="52" ry="46" fill="#fff"/><circle cx="128" cy="74" r="28" fill="#fff"/><path d="M120 44c4-12 16-12 16 0 4-10 16-8 14 4z" fill="#e0302a"/><path d="M154 76l18 6-18 6z" fill="#ffb020"/><circle cx="134" cy="70" r="4" fill="#1d2a44"/><path d="M84 164v20M112 164v20" stroke="#ffb020" stroke-width="6"/><path d="M20 176h160" stroke="url(#gold)" stroke-width="6" stroke-dasharray="18 12"/></g>`,
  cube: `<g><path d="M100 30l60 34v70l-60 34-60-34V64z" fill="url(#mid)"/><path d="M100 30l60 34-60 34-60-34z" fill="url(#hi)"/><path d="M100 98v70l60-34V64z" fill="url(#lo)"/><path d="M100 6v16" stroke="url(#gold)" stroke-width="4" stroke-dasharray="4 4"/></g>`,
  plane: `<g transform="rotate(-20 100 100)"><path d="M30 104c40-8 100-12 140-6 10 2 10 12 0 14-40 6-100 2-140-8z" fill="url(#hi)"/><path d="M90 100 60 50h20l44 50zM90 112l-30 40h20l44-40zM160 100l14-24h10l-6 26z" fill="url(#accent)"/><path d="M0 140c40 10 120 10 200-20" stroke="#fff" stroke-opacity=".4" stroke-width="4" fill="none"/></g>`,
  toucan: `<g><ellipse cx="82" cy="112" rx="40" ry="58" fill="#1d2a44"/><ellipse cx="90" cy="90" rx="20" ry="24" fill="#fff"/><circle cx="94" cy="76" r="6" fill="#1d2a44"/><path d="M104 72c40-12 72 0 76 16-24 10-56 10-76 0z" fill="#ff8a00"/><path d="M104 80c40 4 64 6 76 8" stroke="#e0302a" stroke-width="6"/><circle cx="160" cy="40" r="10" fill="url(#gold)"/><circle cx="34" cy="40" r="4" fill="#fff"/><circle cx="176" cy="150" r="5" fill="#fff"/></g>`,
  zeppelin: `<g><ellipse cx="100" cy="84" rx="80" ry="36" fill="url(#steel)"/><path d="M26 84h148" stroke="#fff" stroke-opacity=".35" stroke-width="3"/><path d="M168 70l24-20v68l-24-20z" fill="url(#accent)"/><rect x="78" y="120" width="44" height="18" rx="6" fill="url(#accent)"/><path d="M86 120l-4-16M114 120l4-16" stroke="#fff" stroke-width="3"/></g>`,
  fish: `<g><path d="M30 100c30-50 100-60 130 0-30 60-100 50-130 0z" fill="url(#accent)"/><path d="M160 100l30-30v60z" fill="url(#accent)"/><circle cx="60" cy="94" r="8" fill="#fff"/><circle cx="62" cy="94" r="4" fill="#1d2a44"/><path d="M90 70c10 20 10 40 0 60M112 70c10 20 10 40 0 60" stroke="#fff" stroke-opacity=".35" stroke-width="4" fill="none"/><circle cx="40" cy="40" r="8" fill="none" stroke="#fff" stroke-opacity=".6" stroke-width="3"/><circle cx="58" cy="24" r="5" fill="none" stroke="#fff" stroke-opacity=".6" stroke-width="3"/></g>`,
  toad: `<g><ellipse cx="100" cy="122" rx="66" ry="46" fill="url(#gold)"/><circle cx="64" cy="80" r="20" fill="url(#gold)"/><circle cx="136" cy="80" r="20" fill="url(#gold)"/><circle cx="64" cy="78" r="8" fill="#1d2a44"/><circle cx="136" cy="78" r="8" fill="#1d2a44"/><path d="M70 124q30 20 60 0" stroke="#7a4a00" stroke-width="5" fill="none"/><circle cx="100" cy="136" r="16" fill="#d22"/><rect x="94" y="130" width="12" height="12" fill="url(#gold)"/></g>`,
  mermaid: `<g><path d="M90 30c30 10 40 50 20 90-10 20-10 40 10 60-30 0-50-20-40-50 6-20-6-40-10-60 4-20 10-34 20-40z" fill="url(#accent)"/><path d="M120 176c20-10 40-6 50 6-20 8-36 6-50-6zM120 176c-4-20 6-36 20-44 2 20-6 34-20 44z" fill="url(#accent)"/><path d="M94 60q10 10 0 24M100 96q10 10 0 24" stroke="#fff" stroke-opacity=".4" stroke-width="3" fill="none"/><circle cx="60" cy="60" r="10" fill="url(#pearl)"/></g>`,
  balls: `<g>${[
    [60, 120, '#e0302a', 7],
    [110, 84, '#2f7de1', 21],
    [146, 136, '#1fa35b', 36],
    [92, 152, '#ffb020', 12],
  ]
    .map(
      ([x, y, c, n]) =>
        `<circle cx="${x}" cy="${y}" r="32" fill="${c}"/><circle cx="${x}" cy="${y}" r="17" fill="#fff"/><text x="${x}" y="${Number(y) + 7}" font-size="20" font-weight="900" text-anchor="middle" fill="#1d2a44">${n}</text><ellipse cx="${Number(x) - 12}" cy="${Number(y) - 14}" rx="8" ry="5" fill="#fff" opacity=".5"/>`,
    )
    .join('')}</g>`,
  scratch: `<g><rect x="26" y="40" width="148" height="120" rx="14" fill="#fff"/><rect x="40" y="54" width="120" height="92" rx="8" fill="url(#steel)"/><path d="M48 120c20-30 40 10 60-20s30 10 46-10" stroke="#fff" stroke-width="18" stroke-linecap="round" fill="none"/><text x="100" y="112" font-size="28" font-weight="900" text-anchor="middle" fill="url(#gold)">$$$</text><circle cx="164" cy="160" r="18" fill="url(#gold)"/></g>`,
  sicbo: `<g>${[
    [50, 80, -12],
    [110, 60, 10],
    [84, 120, 4],
  ]
    .map(
      ([x, y, r]) =>
        `<rect x="${x}" y="${y}" width="56" height="56" rx="12" fill="url(#hi)" transform="rotate(${r} ${Number(x) + 28} ${Number(y) + 28})"/><circle cx="${Number(x) + 28}" cy="${Number(y) + 28}" r="7" fill="#d22"/>`,
    )
    .join('')}<path d="M150 20l-20 40h16l-10 34 30-46h-16z" fill="url(#gold)"/></g>`,
  trophy: `<g><path d="M60 36h80v40a40 40 0 0 1-80 0z" fill="url(#gold)"/><path d="M60 46H36c0 26 12 38 28 38M140 46h24c0 26-12 38-28 38" stroke="url(#gold)" stroke-width="8" fill="none"/><rect x="90" y="112" width="20" height="30" fill="url(#gold)"/><rect x="64" y="142" width="72" height="22" rx="6" fill="url(#wood)"/></g>`,
} as const;

const EXTRA = {
  basketball: `<g><circle cx="100" cy="100" r="70" fill="#f07b1d"/><path d="M30 100h140M100 30v140M50 50c30 30 30 70 0 100M150 50c-30 30-30 70 0 100" stroke="#5a2a08" stroke-width="5" fill="none"/><ellipse cx="76" cy="70" rx="16" ry="10" fill="#fff" opacity=".3"/><path d="M140 20h50v10h-50z" fill="url(#hi)"/><path d="M146 30l6 30h26l6-30" fill="none" stroke="#fff" stroke-width="3"/></g>`,
  tennis: `<g><ellipse cx="86" cy="84" rx="50" ry="62" fill="none" stroke="url(#hi)" stroke-width="10" transform="rotate(-30 86 84)"/><path d="M112 130l40 50" stroke="url(#wood)" stroke-width="14" stroke-linecap="round"/><path d="M56 50l60 70M44 80l50 56M80 30l56 60" stroke="#fff" stroke-opacity=".5" stroke-width="2"/><circle cx="156" cy="60" r="22" fill="#d7f23a"/><path d="M138 48c10 8 26 8 36 0M138 72c10-8 26-8 36 0" stroke="#fff" stroke-width="3" fill="none"/></g>`,
  race: `<g><path d="M40 30v150" stroke="url(#steel)" stroke-width="8"/>${[0, 1, 2, 3]
    .flatMap((r) => [0, 1, 2, 3].map((c) => ({ r, c })))
    .map(
      ({ r, c }) =>
        `<rect x="${44 + c * 26}" y="${34 + r * 22}" width="26" height="22" fill="${(r + c) % 2 ? '#1d2a44' : '#fff'}"/>`,
    )
    .join(
      '',
    )}<path d="M60 176c30-30 80-30 120-6" stroke="url(#gold)" stroke-width="8" fill="none" stroke-linecap="round"/><circle cx="176" cy="166" r="10" fill="url(#accent)"/></g>`,
  kart: `<g><path d="M30 130h140l-20-40H80z" fill="url(#accent)"/><circle cx="110" cy="80" r="18" fill="url(#hi)"/><rect x="102" y="74" width="20" height="8" rx="3" fill="#1d2a44"/><circle cx="60" cy="146" r="22" fill="#1d2a44"/><circle cx="150" cy="146" r="22" fill="#1d2a44"/><circle cx="60" cy="146" r="8" fill="url(#steel)"/><circle cx="150" cy="146" r="8" fill="url(#steel)"/><path d="M10 110h30M4 126h26" stroke="#fff" stroke-opacity=".6" stroke-width="5" stroke-linecap="round"/></g>`,
  gamepad: `<g><path d="M40 70h120a30 30 0 0 1 30 30v20a30 30 0 0 1-52 20l-10-10H72l-10 10a30 30 0 0 1-52-20v-20a30 30 0 0 1 30-30z" fill="url(#lo)"/><path d="M56 96v24M44 108h24" stroke="#fff" stroke-width="8" stroke-linecap="round"/><circle cx="140" cy="98" r="8" fill="url(#accent)"/><circle cx="158" cy="116" r="8" fill="url(#gold)"/><path d="M40 70h120" stroke="#fff" stroke-opacity=".3" stroke-width="3"/></g>`,
} as const;

export type TMotif = keyof typeof M | keyof typeof EXTRA;

const RANKS = ['A', 'K', 'Q', 'J', '10', '9'];
const SUITS: [string, string][] = [
  ['M0 -12l10 12-10 12-10-12z', '#d22'],
  ['M0 10c-16-10-14-24-4-24 3 0 4 3 4 5 0-2 1-5 4-5 10 0 12 14-4 24z', '#d22'],
  ['M0 -14c10 10 16 14 12 22-3 6-9 4-12-1-3 5-9 7-12 1-4-8 2-12 12-22zM-4 12h8l2 6h-12z', '#1d2a44'],
  ['M0 -14a7 7 0 0 1 6 11 7 7 0 1 1-2 12l2 7h-12l2-7a7 7 0 1 1-2-12 7 7 0 0 1 6-11z', '#1d2a44'],
];

/** Two playing cards with a rank and suit of the game's own (a table of card games must not look alike). */
function cards(hash: number): string {
  const rank = RANKS[hash % RANKS.length];
  const [suit, colour] = SUITS[(hash >>> 4) % SUITS.length]!;
  return `<g><rect x="40" y="36" width="80" height="116" rx="12" fill="url(#hi)" transform="rotate(-14 80 94)"/><g transform="rotate(10 120 102)"><rect x="80" y="44" width="80" height="116" rx="12" fill="#fff" stroke="#1d2a44" stroke-width="3"/><text x="120" y="112" font-family="system-ui, sans-serif" font-size="44" font-weight="900" text-anchor="middle" fill="${colour}">${rank}</text><path transform="translate(120 138)" d="${suit}" fill="${colour}"/></g></g>`;
}

export function motifSvg(motif: TMotif, hash = 0): string {
  if (motif === 'cards') return cards(hash);
  return motif in EXTRA ? EXTRA[motif as keyof typeof EXTRA] : M[motif as keyof typeof M];
}

const INHOUSE: Record<string, TMotif> = {
  crash: 'rocket',
  dice: 'dice',
  limbo: 'limbo',
  mines: 'mines',
  plinko: 'plinko',
  keno: 'keno',
  roulette: 'roulette',
  slot: 'reels',
  hilo: 'hilo',
  bingo: 'bingo',
};

/** Words in a title and the motif they call for (first match wins). */
const KEYWORDS: [RegExp, TMotif][] = [
  [/macaw|parrot/i, 'macaw'],
  [/toucan/i, 'toucan'],
  [/fruit|samba fruits/i, 'fruits'],
  [/cherr/i, 'reels'],
  [/treasure|chest/i, 'chest'],
  [/lantern/i, 'lantern'],
  [/dragon/i, 'dragon'],
  [/pharaoh|sun|egypt/i, 'pyramid'],
  [/capybara/i, 'capybara'],
  [/coffee/i, 'coffee'],
  [/koi/i, 'koi'],
  [/viking/i, 'viking'],
  [/wheel/i, 'wheel'],
  [/roulette/i, 'roulette'],
  [/sic bo|dice/i, 'sicbo'],
  [/baccarat|blackjack|poker|patti|bahar|truco|card/i, 'cards'],
  [/tower/i, 'tower'],
  [/goal|penalty|football|soccer/i, 'football'],
  [/basket/i, 'basketball'],
  [/tennis/i, 'tennis'],
  [/kart|racer/i, 'kart'],
  [/derby|greyhound|sprint|race/i, 'race'],
  [/esports|brawler|cyber|arena|league/i, 'gamepad'],
  [/balloon/i, 'balloon'],
  [/chicken/i, 'chicken'],
  [/cube|block/i, 'cube'],
  [/rocket/i, 'rocket'],
  [/jet|pilot|plane/i, 'plane'],
  [/zeppelin/i, 'zeppelin'],
  [/mermaid/i, 'mermaid'],
  [/toad|frog/i, 'toad'],
  [/bingo/i, 'bingo'],
  [/keno/i, 'keno'],
  [/scratch/i, 'scratch'],
  [/ball|draw|lotto/i, 'balls'],
  [/reef|fish|sea|hunter/i, 'fish'],
  [/carnival|fiesta|festa/i, 'fruits'],
];

const BY_CATEGORY: Record<TGameCategory, TMotif[]> = {
  slots: ['reels', 'chest', 'fruits'],
  live_casino: ['roulette', 'cards', 'wheel'],
  arcade: ['cube', 'balloon', 'tower'],
  crash: ['rocket', 'plane', 'zeppelin'],
  fish: ['fish', 'koi', 'mermaid'],
  bingo: ['bingo', 'balls'],
  card: ['cards', 'hilo'],
  lottery: ['balls', 'scratch', 'keno'],
  sports: ['football', 'trophy', 'race'],
  video_game: ['gamepad', 'cube', 'trophy'],
};

/** The motif of a game: its own for in-house games, the one its title names, else its category's. */
export function motifOf(game: { code: string; name: string; category: TGameCategory }, hash: number): TMotif {
  const own = INHOUSE[game.code];
  if (own) return own;
  const named = KEYWORDS.find(([pattern]) => pattern.test(game.name));
  if (named) return named[1];
  const choices = BY_CATEGORY[game.category];
  return choices[hash % choices.length]!;
}
