import { AppError } from '../../errors.ts';

/**
 * What a chat message may be (ADR 016's room: plain text, no links). Two forms of the text:
 *
 * - the stored text is what the player typed, in NFC, without control characters and without
 *   Unicode format characters (\p{Cf}: zero-width space and joiners, word joiner, BOM, soft hyphen,
 *   bidirectional marks and overrides), which render as nothing or disguise text; only a zero-width
 *   joiner inside an emoji sequence (👨‍👩‍👧) is kept. It is not NFKC: that would rewrite what players
 *   in Chinese and Thai type (full-width ， ？ and 。, Thai sara am) in what everyone reads.
 * - the checked text (skeleton) is the stored text in NFKC, without any format character, with the
 *   ideographic full stops read as dots: full-width letters, dots and colons become the ASCII ones
 *   a link is made of, so every rule sees through the spellings that look like a link.
 *
 * Every rule (empty, length, links and schemes) runs on these, never on the raw input.
 */

// Control characters other than line breaks (C0, DEL, C1).
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point.
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;
/** A format character, or a zero-width joiner between two emoji (group 1: the emoji before it). */
const FORMAT_OR_EMOJI_JOINER =
  /(\p{Extended_Pictographic}[\uFE0F\u{1F3FB}-\u{1F3FF}]?)\u200D(?=\p{Extended_Pictographic})|\p{Cf}/gu;
const FORMAT = /\p{Cf}/gu;
/** Full stops of CJK text (ideographic, halfwidth, vertical) after NFKC has folded the rest. */
const IDEOGRAPHIC_DOTS = /[\u3002\uff61\ufe12]/g;

/** A web address or a link in any usual spelling (scheme, www., a domain with a common ending). */
const LINK =
  /(\b[a-z][a-z0-9+.-]*:\/\/)|(\bwww\s*\.)|(\b[a-z0-9-]+\s*(\.|\[\.\]|\(dot\))\s*(com|net|org|io|bet|br|me|gg|xyz|co|app|link|site|online|info|ly|to|tv|club|vip|win|top|cc)\b)|(\bt\.me\/)/i;
/**
 * Schemes that run code or carry a document where a client might make a link of them. `data:` only
 * when something follows the colon at once (a URL has no space there), so Portuguese and Malay
 * players can still write "data: amanhã".
 */
const SCRIPT_SCHEME = /\b(?:javascript|vbscript)\s*:|\bdata:\S/i;

/** The text to store and show: as typed, without invisible characters, spaces collapsed. */
export function chatStoredText(raw: string): string {
  return raw
    .normalize('NFC')
    .replace(CONTROLS, '')
    .replace(FORMAT_OR_EMOJI_JOINER, (_match, emoji: string | undefined) => (emoji ? `${emoji}\u200D` : ''))
    .replace(/\s+/g, ' ')
    .trim();
}

/** The text every rule reads: NFKC, no format characters, ideographic dots as dots. */
export function chatCheckedText(stored: string): string {
  return stored
    .normalize('NFKC')
    .replace(FORMAT, '')
    .replace(IDEOGRAPHIC_DOTS, '.')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The text to store for `raw`, or the refusal: empty once invisible characters are gone, longer
 * than `maxChars` characters (code points of the stored text: what the room shows), a link or a
 * script scheme in any spelling.
 */
export function acceptChatText(raw: string, maxChars: number): string {
  const stored = chatStoredText(raw);
  const checked = chatCheckedText(stored);
  if (stored.length === 0 || checked.length === 0) {
    throw new AppError('VALIDATION_FAILED', {
      messageKey: 'validation.required.message',
      fieldErrors: { text: 'validation.required.message' },
    });
  }
  if ([...stored].length > maxChars) {
    throw new AppError('VALIDATION_FAILED', {
      messageKey: 'validation.too_long',
      fieldErrors: { text: 'validation.too_long' },
    });
  }
  if (LINK.test(checked) || SCRIPT_SCHEME.test(checked)) throw new AppError('CHAT_LINK_BLOCKED');
  return stored;
}
