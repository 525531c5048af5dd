/**
 * The networks as they spell their own names ("WhatsApp", "YouTube"): the server names a link by
 * its code ("whatsapp"), and capitalising a code gives "Whatsapp". A network we do not know keeps
 * its code with a capital first letter.
 */
const NAMES: Record<string, string> = {
  telegram: 'Telegram',
  instagram: 'Instagram',
  whatsapp: 'WhatsApp',
  youtube: 'YouTube',
  facebook: 'Facebook',
  x: 'X',
  tiktok: 'TikTok',
  discord: 'Discord',
};

export function socialNetworkName(code: string): string {
  return NAMES[code.toLowerCase()] ?? code.charAt(0).toUpperCase() + code.slice(1);
}
