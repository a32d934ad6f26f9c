// The message limits as the server counts them (chat/validation.py, the websocket's frame limit), for the composer:
// a message's characters, a high estimate of its tokens, and the bytes of its frame.

// The length of a message as the server counts it (code points: an emoji is one character, not two UTF-16 units).
export function characters(text) {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

// A high estimate of the message's tokens as the server counts them (cl100k): a character outside ASCII counts as
// its UTF-8 bytes, an upper bound (a token holds at least one byte: an emoji, 4 bytes, is 2 or 3 tokens, at most 4),
// and ASCII text as one token per 2 characters (English prose averages about 4 characters a token). Plain ASCII
// text within the character limit stays within the token limit by this count, so only text full of emoji or
// non-Latin characters is warned about.
export function tokenEstimate(text) {
  let ascii = 0;
  let other = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0);
    if (code < 0x80) ascii += 1;
    else other += code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return Math.ceil(ascii / 2) + other;
}

// The reason a message is over the server's character limit ("" when it is not), counted as the server counts: shown
// while typing and when sending (such a message is never sent).
export function characterWarning(text, maxChars) {
  const length = characters(text.trim());
  if (!maxChars || length <= maxChars) return "";
  return `The message is ${length.toLocaleString("en")} characters long; the limit is ` +
         `${maxChars.toLocaleString("en")} characters. Shorten it or split it into several questions.`;
}

// The warning under the composer while a message may be over the server's token limit ("" when it is not): the
// message can still be sent, and if the server refuses it, it stays in the composer with the server's count.
export function tokenWarning(text, maxTokens) {
  const estimate = tokenEstimate(text.trim());
  if (!maxTokens || estimate <= maxTokens) return "";
  return `This message may be over the limit of ${maxTokens.toLocaleString("en")} tokens: emoji and ` +
         "characters outside the Latin alphabet count as several tokens each. If it is refused, it stays here " +
         "to shorten.";
}

// The bytes a frame takes on the socket (UTF-8 JSON). The server closes the socket on a message over
// data.maxFrameBytes (code 1009), so such a frame is never sent.
export function frameBytes(frame) {
  return new TextEncoder().encode(JSON.stringify(frame)).length;
}

export const TOO_LARGE = "The message is too large to send";
