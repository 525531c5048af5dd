import { AGGREGATOR_LANGUAGES } from '@sorte/contract';

/** The game pages' texts in every language the operator launches with (en, pt, cn, ch, vi, id, th, msa). */
export type TLang = (typeof AGGREGATOR_LANGUAGES)[number];

const en = {
  balance: 'Balance',
  bet: 'Bet',
  spin: 'Spin',
  deal: 'Deal',
  win: 'Win',
  last_win: 'Last win',
  no_win: 'No win this time',
  you_won: 'You won {amount}',
  fun_money: 'Fun money',
  real_money: 'Real money',
  paytable: 'Paytable',
  rules: 'Rules',
  rules_slot:
    '5 reels, 3 rows and 10 paylines. Three, four or five equal symbols on a line from the left reel pay the line bet (a tenth of the total bet) times the amount shown. All line wins add up.',
  rules_table:
    'Punto banco. Bet on Player, Banker or Tie, then deal. The hand closest to 9 wins. Player pays 1:1, Banker 0.95:1, Tie 8:1; Player and Banker bets are returned on a tie.',
  player: 'Player',
  banker: 'Banker',
  tie: 'Tie',
  choose_side: 'Choose Player, Banker or Tie',
  rtp: 'Return to player',
  lines: 'lines',
  not_enough_money: 'Not enough balance for this bet. Lower the bet or make a deposit.',
  bet_limit: 'This bet is above the maximum allowed while your bonus is in wagering. Lower the bet.',
  play_limit:
    'This bet would pass a responsible-gaming limit you set (loss or betting limit). Lower the bet or wait until the limit resets.',
  session_expired: 'Your game session has ended. Go back to the lobby and open the game again.',
  round_cancelled: 'The round could not be completed and was cancelled; your stake was returned.',
  win_pending: 'Your win is being credited. The balance will update in a moment.',
  provider_error: 'Something went wrong. Please try again.',
  busy: 'Please wait for the current round to finish.',
  loading: 'Loading…',
  unknown_session: 'This game link is no longer valid. Open the game again from the lobby.',
};
export type TKey = keyof typeof en;

const pt: Record<TKey, string> = {
  balance: 'Saldo',
  bet: 'Aposta',
  spin: 'Girar',
  deal: 'Distribuir',
  win: 'Ganho',
  last_win: 'Último ganho',
  no_win: 'Sem ganho desta vez',
  you_won: 'Você ganhou {amount}',
  fun_money: 'Dinheiro de diversão',
  real_money: 'Dinheiro real',
  paytable: 'Tabela de pagamentos',
  rules: 'Regras',
  rules_slot:
    '5 rolos, 3 linhas e 10 linhas de pagamento. Três, quatro ou cinco símbolos iguais numa linha a partir do primeiro rolo pagam a aposta da linha (um décimo da aposta total) vezes o valor indicado. Todos os ganhos se somam.',
  rules_table:
    'Punto banco. Aposte em Jogador, Banca ou Empate e distribua. Vence a mão mais próxima de 9. Jogador paga 1:1, Banca 0,95:1, Empate 8:1; apostas em Jogador e Banca são devolvidas no empate.',
  player: 'Jogador',
  banker: 'Banca',
  tie: 'Empate',
  choose_side: 'Escolha Jogador, Banca ou Empate',
  rtp: 'Retorno ao jogador',
  lines: 'linhas',
  not_enough_money: 'Saldo insuficiente para esta aposta. Diminua a aposta ou faça um depósito.',
  bet_limit: 'Esta aposta passa do máximo permitido enquanto seu bônus está em rollover. Diminua a aposta.',
  play_limit:
    'Esta aposta ultrapassaria um limite de jogo responsável que você definiu (limite de perda ou de apostas). Diminua a aposta ou aguarde o limite renovar.',
  session_expired: 'Sua sessão de jogo terminou. Volte ao lobby e abra o jogo novamente.',
  round_cancelled: 'A rodada não pôde ser concluída e foi cancelada; sua aposta foi devolvida.',
  win_pending: 'Seu ganho está sendo creditado. O saldo será atualizado em instantes.',
  provider_error: 'Algo deu errado. Tente novamente.',
  busy: 'Aguarde o fim da rodada atual.',
  loading: 'Carregando…',
  unknown_session: 'Este link de jogo não é mais válido. Abra o jogo novamente pelo lobby.',
};

const cn: Record<TKey, string> = {
  balance: '余额',
  bet: '投注',
  spin: '旋转',
  deal: '发牌',
  win: '赢得',
  last_win: '上次赢得',
  no_win: '本次未中奖',
  you_won: '您赢得了 {amount}',
  fun_money: '娱乐币',
  real_money: '真钱',
  paytable: '赔付表',
  rules: '规则',
  rules_slot:
    '5 个转轴、3 行、10 条赔付线。从第一个转轴起同一条线上出现三、四或五个相同符号，即按线注（总投注的十分之一）乘以所示倍数赔付。所有中奖线累计。',
  rules_table:
    '百家乐。押闲、庄或和，然后发牌。点数最接近 9 的一方获胜。闲赔 1:1，庄赔 0.95:1，和赔 8:1；开和时闲和庄的投注退还。',
  player: '闲',
  banker: '庄',
  tie: '和',
  choose_side: '请选择闲、庄或和',
  rtp: '返还率',
  lines: '条线',
  not_enough_money: '余额不足以进行此投注。请降低投注或先充值。',
  bet_limit: '奖金流水未完成时，此投注超过最高投注额。请降低投注。',
  play_limit: '此投注将超过您设定的负责任博彩限额（亏损或投注限额）。请降低投注或等待限额重置。',
  session_expired: '您的游戏会话已结束。请返回大厅重新打开游戏。',
  round_cancelled: '本局无法完成，已取消；您的投注已退还。',
  win_pending: '您的奖金正在入账，余额稍后更新。',
  provider_error: '出现问题，请重试。',
  busy: '请等待当前一局结束。',
  loading: '加载中…',
  unknown_session: '此游戏链接已失效。请从大厅重新打开游戏。',
};

const ch: Record<TKey, string> = {
  balance: '餘額',
  bet: '投注',
  spin: '旋轉',
  deal: '發牌',
  win: '贏得',
  last_win: '上次贏得',
  no_win: '本次未中獎',
  you_won: '您贏得了 {amount}',
  fun_money: '娛樂幣',
  real_money: '真錢',
  paytable: '賠付表',
  rules: '規則',
  rules_slot:
    '5 個轉軸、3 列、10 條賠付線。從第一個轉軸起同一條線上出現三、四或五個相同符號，即按線注（總投注的十分之一）乘以所示倍數賠付。所有中獎線累計。',
  rules_table:
    '百家樂。押閒、莊或和，然後發牌。點數最接近 9 的一方獲勝。閒賠 1:1，莊賠 0.95:1，和賠 8:1；開和時閒和莊的投注退還。',
  player: '閒',
  banker: '莊',
  tie: '和',
  choose_side: '請選擇閒、莊或和',
  rtp: '返還率',
  lines: '條線',
  not_enough_money: '餘額不足以進行此投注。請降低投注或先儲值。',
  bet_limit: '獎金流水未完成時，此投注超過最高投注額。請降低投注。',
  play_limit: '此投注將超過您設定的負責任博彩限額（虧損或投注限額）。請降低投注或等待限額重置。',
  session_expired: '您的遊戲工作階段已結束。請返回大廳重新開啟遊戲。',
  round_cancelled: '本局無法完成，已取消；您的投注已退還。',
  win_pending: '您的獎金正在入帳，餘額稍後更新。',
  provider_error: '發生問題，請重試。',
  busy: '請等待目前一局結束。',
  loading: '載入中…',
  unknown_session: '此遊戲連結已失效。請從大廳重新開啟遊戲。',
};

const vi: Record<TKey, string> = {
  balance: 'Số dư',
  bet: 'Cược',
  spin: 'Quay',
  deal: 'Chia bài',
  win: 'Thắng',
  last_win: 'Lần thắng trước',
  no_win: 'Lần này không thắng',
  you_won: 'Bạn đã thắng {amount}',
  fun_money: 'Tiền chơi thử',
  real_money: 'Tiền thật',
  paytable: 'Bảng trả thưởng',
  rules: 'Luật chơi',
  rules_slot:
    '5 cuộn, 3 hàng và 10 đường thắng. Ba, bốn hoặc năm biểu tượng giống nhau trên một đường tính từ cuộn đầu tiên trả tiền cược của đường (một phần mười tổng cược) nhân với số hiển thị. Mọi đường thắng được cộng lại.',
  rules_table:
    'Punto banco. Cược Nhà con, Nhà cái hoặc Hòa rồi chia bài. Tay gần 9 nhất thắng. Nhà con trả 1:1, Nhà cái 0,95:1, Hòa 8:1; cược Nhà con và Nhà cái được hoàn lại khi hòa.',
  player: 'Nhà con',
  banker: 'Nhà cái',
  tie: 'Hòa',
  choose_side: 'Chọn Nhà con, Nhà cái hoặc Hòa',
  rtp: 'Tỷ lệ hoàn trả',
  lines: 'đường',
  not_enough_money: 'Số dư không đủ cho lần cược này. Hãy giảm cược hoặc nạp tiền.',
  bet_limit: 'Cược này vượt mức cược tối đa khi tiền thưởng đang trong vòng cược. Hãy giảm cược.',
  play_limit:
    'Cược này sẽ vượt giới hạn chơi có trách nhiệm bạn đã đặt (giới hạn thua hoặc giới hạn cược). Hãy giảm cược hoặc chờ giới hạn được đặt lại.',
  session_expired: 'Phiên chơi của bạn đã kết thúc. Hãy quay lại sảnh và mở lại trò chơi.',
  round_cancelled: 'Ván chơi không thể hoàn tất và đã bị hủy; tiền cược đã được hoàn lại.',
  win_pending: 'Tiền thắng đang được cộng. Số dư sẽ cập nhật trong giây lát.',
  provider_error: 'Đã xảy ra lỗi. Vui lòng thử lại.',
  busy: 'Vui lòng chờ ván hiện tại kết thúc.',
  loading: 'Đang tải…',
  unknown_session: 'Liên kết trò chơi này không còn hiệu lực. Hãy mở lại trò chơi từ sảnh.',
};

const id: Record<TKey, string> = {
  balance: 'Saldo',
  bet: 'Taruhan',
  spin: 'Putar',
  deal: 'Bagikan',
  win: 'Menang',
  last_win: 'Kemenangan terakhir',
  no_win: 'Belum menang kali ini',
  you_won: 'Anda menang {amount}',
  fun_money: 'Uang main',
  real_money: 'Uang asli',
  paytable: 'Tabel pembayaran',
  rules: 'Aturan',
  rules_slot:
    '5 gulungan, 3 baris, dan 10 garis pembayaran. Tiga, empat, atau lima simbol sama pada satu garis dari gulungan pertama membayar taruhan garis (sepersepuluh total taruhan) dikali angka yang ditampilkan. Semua kemenangan garis dijumlahkan.',
  rules_table:
    'Punto banco. Pasang pada Player, Banker, atau Seri, lalu bagikan. Tangan yang paling dekat ke 9 menang. Player membayar 1:1, Banker 0,95:1, Seri 8:1; taruhan Player dan Banker dikembalikan saat seri.',
  player: 'Player',
  banker: 'Banker',
  tie: 'Seri',
  choose_side: 'Pilih Player, Banker, atau Seri',
  rtp: 'Pengembalian ke pemain',
  lines: 'garis',
  not_enough_money: 'Saldo tidak cukup untuk taruhan ini. Turunkan taruhan atau lakukan deposit.',
  bet_limit: 'Taruhan ini melebihi batas maksimum selama bonus Anda masih dalam turnover. Turunkan taruhan.',
  play_limit:
    'Taruhan ini akan melewati batas permainan bertanggung jawab yang Anda atur (batas kekalahan atau taruhan). Turunkan taruhan atau tunggu hingga batas diatur ulang.',
  session_expired: 'Sesi permainan Anda telah berakhir. Kembali ke lobi dan buka permainan lagi.',
  round_cancelled: 'Ronde tidak dapat diselesaikan dan dibatalkan; taruhan Anda dikembalikan.',
  win_pending: 'Kemenangan Anda sedang dikreditkan. Saldo akan diperbarui sebentar lagi.',
  provider_error: 'Terjadi kesalahan. Silakan coba lagi.',
  busy: 'Tunggu hingga ronde saat ini selesai.',
  loading: 'Memuat…',
  unknown_session: 'Tautan permainan ini tidak berlaku lagi. Buka permainan lagi dari lobi.',
};

const th: Record<TKey, string> = {
  balance: 'ยอดเงิน',
  bet: 'เดิมพัน',
  spin: 'หมุน',
  deal: 'แจกไพ่',
  win: 'ชนะ',
  last_win: 'ชนะล่าสุด',
  no_win: 'ครั้งนี้ไม่ชนะ',
  you_won: 'คุณชนะ {amount}',
  fun_money: 'เงินทดลองเล่น',
  real_money: 'เงินจริง',
  paytable: 'ตารางการจ่าย',
  rules: 'กติกา',
  rules_slot:
    '5 รีล 3 แถว และ 10 ไลน์ สัญลักษณ์เหมือนกันสาม สี่ หรือห้าตัวบนไลน์เดียวกันโดยเริ่มจากรีลแรก จ่ายเงินเดิมพันต่อไลน์ (หนึ่งในสิบของเดิมพันรวม) คูณด้วยตัวเลขที่แสดง รางวัลทุกไลน์รวมกัน',
  rules_table:
    'ปุนโต บันโก เดิมพันฝั่งผู้เล่น เจ้ามือ หรือเสมอ แล้วแจกไพ่ มือที่ใกล้ 9 ที่สุดชนะ ผู้เล่นจ่าย 1:1 เจ้ามือ 0.95:1 เสมอ 8:1 เดิมพันผู้เล่นและเจ้ามือได้คืนเมื่อเสมอ',
  player: 'ผู้เล่น',
  banker: 'เจ้ามือ',
  tie: 'เสมอ',
  choose_side: 'เลือกผู้เล่น เจ้ามือ หรือเสมอ',
  rtp: 'อัตราการคืนเงิน',
  lines: 'ไลน์',
  not_enough_money: 'ยอดเงินไม่พอสำหรับการเดิมพันนี้ ลดเดิมพันหรือฝากเงิน',
  bet_limit: 'เดิมพันนี้เกินยอดสูงสุดที่อนุญาตระหว่างทำเทิร์นโบนัส โปรดลดเดิมพัน',
  play_limit: 'เดิมพันนี้จะเกินขีดจำกัดการเล่นอย่างรับผิดชอบที่คุณตั้งไว้ (วงเงินเสียหรือวงเงินเดิมพัน) โปรดลดเดิมพันหรือรอให้วงเงินรีเซ็ต',
  session_expired: 'เซสชันเกมของคุณสิ้นสุดแล้ว กลับไปที่ล็อบบี้แล้วเปิดเกมอีกครั้ง',
  round_cancelled: 'รอบนี้ไม่สามารถดำเนินการให้เสร็จได้และถูกยกเลิก เงินเดิมพันของคุณได้รับคืนแล้ว',
  win_pending: 'กำลังเครดิตเงินรางวัลของคุณ ยอดเงินจะอัปเดตในไม่ช้า',
  provider_error: 'เกิดข้อผิดพลาด โปรดลองอีกครั้ง',
  busy: 'โปรดรอให้รอบปัจจุบันจบก่อน',
  loading: 'กำลังโหลด…',
  unknown_session: 'ลิงก์เกมนี้ใช้ไม่ได้แล้ว โปรดเปิดเกมอีกครั้งจากล็อบบี้',
};

const msa: Record<TKey, string> = {
  balance: 'Baki',
  bet: 'Pertaruhan',
  spin: 'Putar',
  deal: 'Agih',
  win: 'Menang',
  last_win: 'Kemenangan terakhir',
  no_win: 'Tiada kemenangan kali ini',
  you_won: 'Anda menang {amount}',
  fun_money: 'Wang main',
  real_money: 'Wang sebenar',
  paytable: 'Jadual bayaran',
  rules: 'Peraturan',
  rules_slot:
    '5 gelendong, 3 baris dan 10 garisan bayaran. Tiga, empat atau lima simbol sama pada satu garisan dari gelendong pertama membayar pertaruhan garisan (satu persepuluh jumlah pertaruhan) didarab angka yang ditunjukkan. Semua kemenangan garisan dijumlahkan.',
  rules_table:
    'Punto banco. Bertaruh pada Pemain, Banker atau Seri, kemudian agih. Tangan paling hampir 9 menang. Pemain membayar 1:1, Banker 0.95:1, Seri 8:1; pertaruhan Pemain dan Banker dipulangkan jika seri.',
  player: 'Pemain',
  banker: 'Banker',
  tie: 'Seri',
  choose_side: 'Pilih Pemain, Banker atau Seri',
  rtp: 'Pulangan kepada pemain',
  lines: 'garisan',
  not_enough_money: 'Baki tidak mencukupi untuk pertaruhan ini. Kurangkan pertaruhan atau buat deposit.',
  bet_limit:
    'Pertaruhan ini melebihi had maksimum semasa bonus anda masih dalam turnover. Kurangkan pertaruhan.',
  play_limit:
    'Pertaruhan ini akan melebihi had perjudian bertanggungjawab yang anda tetapkan (had kerugian atau had pertaruhan). Kurangkan pertaruhan atau tunggu sehingga had ditetapkan semula.',
  session_expired: 'Sesi permainan anda telah tamat. Kembali ke lobi dan buka permainan semula.',
  round_cancelled: 'Pusingan tidak dapat diselesaikan dan dibatalkan; pertaruhan anda telah dipulangkan.',
  win_pending: 'Kemenangan anda sedang dikreditkan. Baki akan dikemas kini sebentar lagi.',
  provider_error: 'Berlaku ralat. Sila cuba lagi.',
  busy: 'Sila tunggu pusingan semasa selesai.',
  loading: 'Memuatkan…',
  unknown_session: 'Pautan permainan ini tidak lagi sah. Buka permainan semula dari lobi.',
};

export const TEXTS: Record<TLang, Record<TKey, string>> = { en, pt, cn, ch, vi, id, th, msa };

export function isLang(value: string): value is TLang {
  return (AGGREGATOR_LANGUAGES as readonly string[]).includes(value);
}

/** BCP 47 tag of a language for number formatting and the page's lang attribute. */
export const LOCALE: Record<TLang, string> = {
  en: 'en',
  pt: 'pt-BR',
  cn: 'zh-Hans',
  ch: 'zh-Hant',
  vi: 'vi',
  id: 'id',
  th: 'th',
  msa: 'ms',
};
