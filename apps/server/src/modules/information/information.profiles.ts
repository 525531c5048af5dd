import type { TJurisdiction } from '../sites/sites.schema.ts';

/**
 * The community settings and announcements each jurisdiction profile starts a site with (ADR 016).
 * A site gets them as rows (`site_community`, `site_announcements`) the first time they are read; an
 * operator changes the rows afterwards. Code reads the rows, never the jurisdiction.
 *
 * Spec §9: chat rain reward every 5 hours. On `br` a rain is off unless the site enables it: a free
 * prize draw needs its own authorisation there (Lei 5.768/71, Portaria SPA/MF 1.231/2024 art. 42 §4).
 */
export interface TCommunityDefaults {
  chatEnabled: boolean;
  chatMaxChars: number;
  chatRateMessages: number;
  chatRateSeconds: number;
  chatHistory: number;
  rainEnabled: boolean;
  rainOffReason: string | null;
  rainEveryMinutes: number;
  rainPotMinor: bigint;
  rainWindowMinutes: number;
  /** Who shares a rain: besides chatting in the window, stakes of at least this in the last days. */
  rainMinWagerMinor: bigint;
  rainWagerDays: number;
}

const COMMON = {
  chatEnabled: true,
  chatMaxChars: 160,
  chatRateMessages: 3,
  chatRateSeconds: 10,
  chatHistory: 50,
  rainEveryMinutes: 300,
  rainWindowMinutes: 30,
  rainMinWagerMinor: 1_000n,
  rainWagerDays: 7,
} as const;

export const COMMUNITY_DEFAULTS: Record<TJurisdiction, TCommunityDefaults> = {
  intl: { ...COMMON, rainEnabled: true, rainOffReason: null, rainPotMinor: 10_000n },
  br: { ...COMMON, rainEnabled: false, rainOffReason: 'chat.off.prize_draw', rainPotMinor: 10_000n },
};

type TText = Record<'en' | 'pt' | 'cn' | 'ch' | 'vi' | 'id' | 'th' | 'msa', string>;

export interface TAnnouncementSeed {
  code: string;
  position: number;
  title: TText;
  body: TText;
}

const WELCOME: TAnnouncementSeed = {
  code: 'welcome',
  position: 0,
  title: {
    en: 'Welcome to {site}',
    pt: 'Bem-vindo ao {site}',
    cn: '欢迎来到 {site}',
    ch: '歡迎來到 {site}',
    vi: 'Chào mừng đến với {site}',
    id: 'Selamat datang di {site}',
    th: 'ยินดีต้อนรับสู่ {site}',
    msa: 'Selamat datang ke {site}',
  },
  body: {
    en: 'Deposits and withdrawals run over PIX around the clock. Every in-house game is provably fair: check any round on the Fairness page.',
    pt: 'Depósitos e saques via PIX 24 horas por dia. Todos os jogos originais são Provably Fair: confira qualquer rodada na página de Fairness.',
    cn: 'PIX 充值和提款全天候运行。所有自营游戏均可证明公平：可在公平性页面验证任意一局。',
    ch: 'PIX 儲值與提款全天候運作。所有自營遊戲皆可證明公平：可在公平性頁面驗證任一局。',
    vi: 'Nạp và rút tiền qua PIX suốt ngày đêm. Mọi trò chơi nội bộ đều Provably Fair: kiểm tra bất kỳ ván nào trên trang Công bằng.',
    id: 'Deposit dan penarikan lewat PIX sepanjang waktu. Setiap game internal Provably Fair: periksa setiap ronde di halaman Fairness.',
    th: 'ฝากและถอนผ่าน PIX ได้ตลอด 24 ชั่วโมง เกมของเราทุกเกมเป็น Provably Fair ตรวจสอบทุกรอบได้ที่หน้า Fairness',
    msa: 'Deposit dan pengeluaran melalui PIX sepanjang masa. Setiap permainan dalaman adalah Provably Fair: semak mana-mana pusingan di halaman Fairness.',
  },
};

const TERMS: TAnnouncementSeed = {
  code: 'terms_notice',
  position: 1,
  title: {
    en: 'Changes to the terms',
    pt: 'Alterações nos termos',
    cn: '条款变更',
    ch: '條款變更',
    vi: 'Thay đổi điều khoản',
    id: 'Perubahan syarat',
    th: 'การเปลี่ยนแปลงข้อกำหนด',
    msa: 'Perubahan terma',
  },
  body: {
    en: 'Any update to the terms is announced here at least two weeks before it takes effect.',
    pt: 'Qualquer atualização dos termos é anunciada aqui com pelo menos duas semanas de antecedência.',
    cn: '条款的任何更新都会至少提前两周在此公告。',
    ch: '條款的任何更新都會至少提前兩週在此公告。',
    vi: 'Mọi cập nhật điều khoản sẽ được thông báo tại đây ít nhất hai tuần trước khi có hiệu lực.',
    id: 'Setiap pembaruan syarat diumumkan di sini setidaknya dua minggu sebelum berlaku.',
    th: 'การปรับปรุงข้อกำหนดทุกครั้งจะประกาศที่นี่ล่วงหน้าอย่างน้อยสองสัปดาห์',
    msa: 'Sebarang kemas kini terma diumumkan di sini sekurang-kurangnya dua minggu sebelum berkuat kuasa.',
  },
};

const RESPONSIBLE: TAnnouncementSeed = {
  code: 'responsible_gaming',
  position: 2,
  title: {
    en: 'Play responsibly',
    pt: 'Jogue com responsabilidade',
    cn: '理性游戏',
    ch: '理性遊戲',
    vi: 'Chơi có trách nhiệm',
    id: 'Bermain secara bertanggung jawab',
    th: 'เล่นอย่างมีความรับผิดชอบ',
    msa: 'Bermain secara bertanggungjawab',
  },
  body: {
    en: 'Set deposit, loss and time limits or take a break from the security centre. Only adults (18+) may play.',
    pt: 'Defina limites de depósito, perda e tempo ou faça uma pausa na central de segurança. Proibido para menores de 18 anos.',
    cn: '可在安全中心设置充值、亏损和时间限额或暂停游戏。仅限18岁以上成年人。',
    ch: '可在安全中心設定儲值、虧損與時間限額或暫停遊戲。僅限18歲以上成年人。',
    vi: 'Đặt giới hạn nạp, thua và thời gian hoặc tạm nghỉ tại trung tâm bảo mật. Chỉ người từ 18 tuổi.',
    id: 'Atur batas deposit, kekalahan dan waktu atau ambil jeda di pusat keamanan. Hanya untuk 18+.',
    th: 'ตั้งวงเงินฝาก วงเงินเสีย และเวลาเล่น หรือพักการเล่นได้ที่ศูนย์ความปลอดภัย เฉพาะผู้มีอายุ 18 ปีขึ้นไป',
    msa: 'Tetapkan had deposit, kerugian dan masa atau berehat di pusat keselamatan. Hanya 18 tahun ke atas.',
  },
};

export const ANNOUNCEMENT_DEFAULTS: Record<TJurisdiction, TAnnouncementSeed[]> = {
  intl: [WELCOME, TERMS, RESPONSIBLE],
  br: [WELCOME, TERMS, RESPONSIBLE],
};
