import { describe, expect, it } from 'vitest';
import { acceptChatText, chatCheckedText, chatStoredText } from './chat-text.ts';

const refusal = (raw: string) => {
  try {
    acceptChatText(raw, 160);
    return null;
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe('chat text', () => {
  it.each([
    ['a zero-width space', 'go to evil\u200b.com now'],
    ['a zero-width joiner', 'go to evil\u200d.com now'],
    ['a zero-width non-joiner', 'go to evil\u200c.com now'],
    ['a word joiner', 'go to evil\u2060.com now'],
    ['a byte order mark', 'go to evil\ufeff.com now'],
    ['a soft hyphen', 'go to ev\u00adil.c\u00adom now'],
    ['a full-width dot', 'go to evil\uff0ecom now'],
    ['an ideographic dot', 'go to evil\u3002com now'],
    ['a halfwidth ideographic dot', 'go to evil\uff61com now'],
    ['full-width letters', 'go to \uff45\uff56\uff49\uff4c\uff0e\uff43\uff4f\uff4d now'],
    ['a javascript: scheme', 'javascript:alert(1)'],
    ['a spaced, capitalised javascript: scheme', 'JavaScript :alert(document.cookie)'],
    [
      'a full-width javascript: scheme',
      '\uff4a\uff41\uff56\uff41\uff53\uff43\uff52\uff49\uff50\uff54\uff1aalert(1)',
    ],
    ['a data: document', 'data:text/html;base64,PHNjcmlwdD4='],
    ['a vbscript: scheme', 'vbscript:msgbox(1)'],
  ])('refuses a link hidden with %s', (_name, raw) => {
    expect(refusal(raw)).toBe('CHAT_LINK_BLOCKED');
  });

  it.each([
    ['zero-width spaces', '\u200b\u200b\u200b'],
    ['a lone zero-width joiner', '\u200d'],
    ['format characters and spaces', '\ufeff \u2060 \u200c'],
    ['bidirectional overrides', '\u202e\u202d'],
  ])('refuses a message of only %s as empty', (_name, raw) => {
    expect(refusal(raw)).toBe('VALIDATION_FAILED');
  });

  it('stores what was typed, without the invisible characters', () => {
    expect(chatStoredText('oi\u200b tudo\u2060 bem?')).toBe('oi tudo bem?');
    // Chinese full-width punctuation and Thai stay as typed; the checks read them folded.
    expect(chatStoredText('你好。今天怎么样？')).toBe('你好。今天怎么样？');
    expect(chatStoredText('ขอบคุณครับ ทำได้')).toBe('ขอบคุณครับ ทำได้');
    expect(chatCheckedText('你好。今天怎么样？')).toBe('你好.今天怎么样?');
    // An emoji sequence keeps its joiners.
    expect(chatStoredText('👨\u200d👩\u200d👧 boa sorte')).toBe('👨\u200d👩\u200d👧 boa sorte');
  });

  it('lets through words that only look like a scheme, and counts the length of what is shown', () => {
    expect(refusal('data: amanhã às 10h')).toBeNull();
    expect(refusal('sem dados, só java script: nada')).toBeNull();
    expect(refusal('你好。今天怎么样？')).toBeNull();
    expect(refusal(`${'a'.repeat(160)}${'\u200b'.repeat(40)}`)).toBeNull();
    expect(refusal('a'.repeat(161))).toBe('VALIDATION_FAILED');
  });
});
