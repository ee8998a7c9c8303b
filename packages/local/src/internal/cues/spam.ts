/**
 * Spam signals: links, promotion and calls to action, contact details, spam vocabulary,
 * repetition, shouting. Shared by the cue model (its SPAM label) and by the spam checker (its
 * reasoning), so both name the same evidence. Every signal carries a verbatim span.
 */
import type { Token } from "../text/words.js"

export type SpamSignalKind =
  | "link"
  | "shortened link"
  | "incomplete link"
  | "link-only comment"
  | "promotion"
  | "contact details"
  | "spam vocabulary"
  | "money offer"
  | "repeated characters"
  | "repeated words"
  | "repeated sentence"
  | "all caps"
  | "money emoji"

export interface SpamSignal {
  readonly kind: SpamSignalKind
  readonly begin: number
  readonly end: number
  /** Contribution to the spam log-odds. */
  readonly weight: number
}

export interface SpamEvidence {
  readonly signals: ReadonlyArray<SpamSignal>
  /** Log-odds that the comment is spam, from the signals alone. */
  readonly logit: number
  /** Word tokens outside links: how much text there is to judge. */
  readonly words: number
  /** Complete links (a host with a top-level domain). */
  readonly links: number
}

export const SPAM_BIAS = -3.2
const DECAY = 0.85

// ---------------------------------------------------------------- patterns (built once)

const URL = /\b(?:https?:\/\/|www\.)[^\s<>"'`]*/giu
const TLDS = "com|net|org|io|co|biz|info|xyz|top|ru|cn|shop|store|online|site|club|app|ly|me|tv|gg|link|live|us|uk|de|in|to|cc|ws|su|pw|click|vip|win|bid|loan|icu"
const BARE_DOMAIN = new RegExp(`\\b(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+(?:${TLDS})\\b(?:\\/[^\\s<>"'\`]*)?`, "giu")
/** Cheap pre-check: bare domains are only searched for when some "x.tld" occurs at all. */
const TLD_HINT = new RegExp(`[a-z0-9]\\.(?:${TLDS})\\b`, "iu")
const TRAILING_PUNCT = /[.,!?;:)\]}'"»”]+$/u
const SHORTENERS: ReadonlySet<string> = new Set([
  "bit.ly", "tinyurl.com", "t.co", "goo.gl", "ow.ly", "is.gd", "buff.ly", "cutt.ly", "rebrand.ly", "shorturl.at", "tiny.cc",
  "rb.gy", "linktr.ee", "t.ly", "s.id", "v.gd", "bl.ink", "shorte.st", "adf.ly", "lnkd.in", "bitly.com", "tr.ee"
])

/** A promotion pattern, tried only when one of its trigger substrings occurs (lowercase). */
const promotion = (source: string, weight: number, triggers: ReadonlyArray<string>) => ({ re: new RegExp(source, "giu"), weight, triggers })
const PROMOTIONS = [
  promotion(String.raw`\b(?:check|checkout)\s*(?:out\s+)?(?:my|our)\s+(?:new\s+|latest\s+)?(?:channel|page|profile|website|site|blog|store|shop|video|videos|music|stream|podcast|book|app|course|link|bio|onlyfans|content)\b`, 2.8, ["check"]),
  promotion(String.raw`\b(?:visit|follow|join)\s+(?:my|our)\s+(?:website|site|page|channel|store|shop|blog|group|telegram|discord|profile)\b`, 2.6, ["visit", "follow", "join"]),
  promotion(String.raw`\bsubscribe\b(?:\s+to\s+(?:my|our)\s+\w+)?`, 1.8, ["subscri"]),
  promotion(String.raw`\bfollow\s+(?:me|us)\b(?:\s+(?:on|at)\s+\w+)?`, 1.4, ["follow"]),
  promotion(String.raw`\b(?:buy|order|shop|book|download|register|sign\s+up|join|apply|act|call)\s+(?:now|today)\b`, 2.4, ["now", "today"]),
  promotion(String.raw`\bclick\s+(?:here|the\s+link|this\s+link|on\s+(?:the|my)\s+link|below)\b`, 2.4, ["click"]),
  promotion(String.raw`\blink\s+in\s+(?:my\s+)?(?:bio|profile|description)\b`, 2.4, ["link in"]),
  promotion(String.raw`\b(?:dm|pm|inbox|message|text|whatsapp|contact)\s+(?:me|us)\b`, 1.8, ["dm", "pm", "inbox", "message", "text", "whatsapp", "contact"]),
  promotion(String.raw`\b(?:whatsapp|telegram|wechat|signal)\s*(?::|@|\+|at\b|on\b)`, 1.6, ["whatsapp", "telegram", "wechat", "signal"]),
  promotion(String.raw`\b(?:earn|make|making|earning|made|get\s+paid)\s+(?:up\s+to\s+|over\s+)?[$€£]\s?\d[\d,.]*k?\b`, 3.0, ["$", "€", "£"]),
  promotion(String.raw`[$€£]\s?\d[\d,.]*k?\s*(?:\+\s*)?(?:\/|per|a|an|every)\s*(?:day|week|hour|hr|month)\b`, 2.4, ["$", "€", "£"]),
  promotion(String.raw`\b(?:work|working)\s+from\s+home\b`, 1.4, ["from home"]),
  promotion(String.raw`\b(?:limited[-\s]time\s+offer|limited\s+offer|special\s+offer|exclusive\s+offer|don'?t\s+miss\s+(?:out|this))\b`, 2.2, ["offer", "miss"]),
  promotion(String.raw`\b(?:discount|promo|coupon|referral)\s+code\b|\buse\s+(?:my\s+)?code\b`, 2.2, ["code"]),
  promotion(String.raw`\b(?:100%\s+free|free\s+(?:gift|trial|money|followers|likes|iphone|giveaway|shipping|bitcoin|crypto|download))\b`, 2.0, ["free"]),
  promotion(String.raw`\b(?:make\s+money|passive\s+income|financial\s+freedom|investment\s+opportunity|get\s+rich|side\s+hustle|be\s+your\s+own\s+boss|extra\s+income|risk[-\s]free|guaranteed\s+(?:profit|returns|income|results))\b`, 2.4, ["money", "income", "freedom", "opportunity", "rich", "hustle", "boss", "risk", "guaranteed"]),
  promotion(String.raw`\bcongratulations[!,.\s]+you(?:'ve|\s+have)\s+(?:won|been\s+selected)\b`, 3.0, ["congrat"]),
  promotion(String.raw`\b(?:giveaway|sponsored|affiliate|promo)\b`, 1.0, ["giveaway", "sponsor", "affiliate", "promo"]),
  promotion(String.raw`\b(?:best|cheap|cheapest|lowest)\s+(?:price|prices|deals?)\b`, 1.5, ["price", "deal"]),
  // YouTube-style self-promotion and engagement bait (TubeSpam's categories; chosen on the
  // Psy, Katy Perry and LMFAO videos, never on the held-out Eminem video)
  promotion(String.raw`\bcheck\s+out\s+this\s+(?:video|playlist|channel)\s+on\s+youtube\b`, 3.0, ["youtube"]),
  promotion(String.raw`\b(?:check|checkout)\s*(?:it\s+)?out\b`, 1.0, ["check"]),
  promotion(String.raw`\b(?:my|our)\s+(?:youtube\s+|new\s+|own\s+)?(?:channel|playlist|vids?|videos?|songs?|music|rap|mixtape|remix|cover|page)\b`, 1.2, ["my", "our"]),
  promotion(String.raw`\b(?:like\s+this\s+comment|thumbs\s+up\s+if|like\s*(?:&|and)\s*share|share\s+this\s+(?:video|page|comment))\b`, 2.2, ["like", "thumbs", "share"]),
  promotion(String.raw`\bsub(?:scribe)?\s*(?:4|for)\s*sub\b|\bsubscri(?:bers?|bing|birse)\b|\bsuscr[ií]b`, 1.2, ["sub", "suscr"]),
  promotion(String.raw`\b(?:please|plz|pls)\s+(?:check|listen|watch|subscribe|sub|share|like|support|visit|help|give)\b`, 1.4, ["please", "plz", "pls"]),
  promotion(String.raw`\b(?:hot\s+singles|dating\s+site|meet\s+(?:local\s+)?(?:singles|girls|women))\b`, 2.6, ["singles", "dating", "meet"])
] as const

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/gu
const PHONE = /(?<![\w$€£.,])\+?\(?\d[\d\s().-]{7,16}\d(?![\w%])/gu
const REPEATED_CHARS = /(\S)\1{5,}/gu
const MONEY_EMOJI = /[\u{1F4B0}\u{1F4B5}\u{1F4B8}\u{1F911}\u{1F680}\u{1F4C8}\u{1F525}\u{2705}\u{1F449}]/gu
const CAPS_RUN = /[A-Z][A-Z0-9'’$!?.,\s]{10,}[A-Z0-9!?$]/gu

const VOCABULARY: ReadonlyMap<string, number> = new Map([
  // crypto and trading
  ["bitcoin", 1.0], ["btc", 0.9], ["crypto", 0.9], ["cryptocurrency", 0.9], ["forex", 1.4], ["nft", 1.0], ["nfts", 1.0],
  ["airdrop", 1.5], ["ethereum", 0.8], ["usdt", 1.4], ["binance", 1.0], ["memecoin", 1.4], ["trading", 0.4],
  ["investment", 0.4], ["investing", 0.3], ["profit", 0.5], ["profits", 0.5], ["roi", 0.8],
  // pharma and health
  ["viagra", 2.2], ["cialis", 2.2], ["pharmacy", 1.0], ["pills", 0.9], ["prescription", 0.4], ["keto", 0.8], ["cbd", 0.9],
  ["supplement", 0.6], ["supplements", 0.6], ["weightloss", 1.4], ["diet", 0.3], ["enlargement", 1.8],
  // gambling, loans, adult promotion
  ["casino", 1.4], ["betting", 1.0], ["bet365", 1.6], ["slots", 1.0], ["jackpot", 1.2], ["poker", 0.6], ["loan", 0.8],
  ["loans", 0.9], ["payday", 1.2], ["escort", 1.6], ["escorts", 1.6], ["onlyfans", 1.4], ["camgirls", 2.0], ["xxx", 1.4],
  // SEO and social
  ["seo", 1.2], ["backlinks", 2.0], ["backlink", 2.0], ["traffic", 0.4], ["followers", 0.7], ["subscribers", 0.7],
  ["giveaway", 0.8], ["replica", 1.0], ["rolex", 0.8], ["wholesale", 1.0], ["dropshipping", 1.4], ["mlm", 1.4],
  ["webinar", 0.8], ["coupon", 1.0], ["unsubscribe", 1.0]
])

const LEGIT_SOURCE = /\b(?:source|sources|according\s+to|study|studies|report|paper|data|article|wiki|wikipedia|here'?s|see|read|reference|cited?|evidence|link\s+to\s+the)\b/iu

// ---------------------------------------------------------------- detection

const hostOf = (url: string): string => {
  const noScheme = url.replace(/^https?:\/\//iu, "")
  const host = noScheme.split(/[/?#:]/u)[0] ?? ""
  return host.toLowerCase().replace(/^www\./u, "")
}

const isCompleteHost = (host: string): boolean => /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}$/u.test(host)

const digitsIn = (s: string): number => {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 48 && c <= 57) n++
  }
  return n
}

/** Collects the spam evidence of `text`. `tokens` are its word tokens (see `tokenize`). */
export const detectSpam = (text: string, tokens: ReadonlyArray<Token>): SpamEvidence => {
  const signals: Array<SpamSignal> = []
  const linkRanges: Array<{ begin: number; end: number }> = []
  let links = 0
  let incomplete = 0
  const inLink = (at: number) => linkRanges.some((r) => at >= r.begin && at < r.end)

  // links
  URL.lastIndex = 0
  for (let m = URL.exec(text); m !== null; m = URL.exec(text)) {
    const raw = m[0].replace(TRAILING_PUNCT, "")
    if (raw.length === 0) continue
    const range = { begin: m.index, end: m.index + raw.length }
    linkRanges.push(range)
    const host = hostOf(raw)
    if (!isCompleteHost(host)) {
      incomplete++
      signals.push({ kind: "incomplete link", ...range, weight: 0.5 })
      continue
    }
    links++
    signals.push({ kind: "link", ...range, weight: links === 1 ? 0.9 : links === 2 ? 0.8 : 0.7 })
    if (SHORTENERS.has(host)) signals.push({ kind: "shortened link", ...range, weight: 1.5 })
  }
  BARE_DOMAIN.lastIndex = 0
  const domains = TLD_HINT.test(text)
  for (let m = domains ? BARE_DOMAIN.exec(text) : null; m !== null; m = BARE_DOMAIN.exec(text)) {
    if (inLink(m.index) || (m.index > 0 && text[m.index - 1] === "@")) continue
    const raw = m[0].replace(TRAILING_PUNCT, "")
    // Skip the domain part of an email address.
    if (text[m.index + m[0].length] === "@") continue
    const range = { begin: m.index, end: m.index + raw.length }
    linkRanges.push(range)
    links++
    signals.push({ kind: "link", ...range, weight: links === 1 ? 0.8 : 0.7 })
    if (SHORTENERS.has(hostOf(raw))) signals.push({ kind: "shortened link", ...range, weight: 1.5 })
  }

  // words outside links
  let words = 0
  for (const t of tokens) if (!inLink(t.begin)) words++

  if (links + incomplete > 0 && words <= 3) {
    const first = linkRanges[0]
    if (first) signals.push({ kind: "link-only comment", ...first, weight: links > 0 ? 1.4 : 0.6 })
  }

  // promotion and calls to action
  let promoted = false
  const lower = text.toLowerCase()
  for (const p of PROMOTIONS) {
    if (!p.triggers.some((t) => lower.includes(t))) continue
    p.re.lastIndex = 0
    for (let m = p.re.exec(text); m !== null; m = p.re.exec(text)) {
      if (m[0].length === 0) {
        p.re.lastIndex++
        continue
      }
      if (inLink(m.index)) continue
      promoted = true
      signals.push({ kind: p.weight >= 2.4 && /[$€£]/u.test(m[0]) ? "money offer" : "promotion", begin: m.index, end: m.index + m[0].length, weight: p.weight })
    }
  }

  // contact details
  EMAIL.lastIndex = 0
  for (let m = text.includes("@") ? EMAIL.exec(text) : null; m !== null; m = EMAIL.exec(text)) {
    signals.push({ kind: "contact details", begin: m.index, end: m.index + m[0].length, weight: 1.6 })
  }
  PHONE.lastIndex = 0
  for (let m = PHONE.exec(text); m !== null; m = PHONE.exec(text)) {
    const raw = m[0].trim()
    const digits = digitsIn(raw)
    // Phone numbers have 9 to 15 digits; year ranges and plain big numbers do not look like this.
    if (digits < 9 || digits > 15 || /^\d{4}\s*[-–]\s*\d{4}$/u.test(raw) || /^\d+$/u.test(raw) && digits > 11) continue
    if (inLink(m.index)) continue
    signals.push({ kind: "contact details", begin: m.index, end: m.index + raw.length, weight: 1.8 })
  }

  // vocabulary
  for (const t of tokens) {
    const w = VOCABULARY.get(t.key)
    if (w !== undefined && !inLink(t.begin)) signals.push({ kind: "spam vocabulary", begin: t.begin, end: t.end, weight: w })
  }

  // repetition
  REPEATED_CHARS.lastIndex = 0
  for (let m = REPEATED_CHARS.exec(text); m !== null; m = REPEATED_CHARS.exec(text)) {
    if (inLink(m.index)) continue
    signals.push({ kind: "repeated characters", begin: m.index, end: m.index + m[0].length, weight: 0.5 })
  }
  let run = 1
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i]!
    const prev = tokens[i - 1]!
    run = t.lower === prev.lower ? run + 1 : 1
    if (run === 3) {
      const start = tokens[i - 2]!
      signals.push({ kind: "repeated words", begin: start.begin, end: t.end, weight: 1.0 })
    }
  }
  repeatedSentence(text, signals)

  // shouting: mostly capital letters over a reasonable amount of text
  let upper = 0
  let letters = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c >= 65 && c <= 90) {
      upper++
      letters++
    } else if (c >= 97 && c <= 122) letters++
  }
  if (letters >= 15 && upper / letters >= 0.7) {
    let best: { begin: number; end: number } | null = null
    CAPS_RUN.lastIndex = 0
    for (let m = CAPS_RUN.exec(text); m !== null; m = CAPS_RUN.exec(text)) {
      if (!best || m[0].length > best.end - best.begin) best = { begin: m.index, end: m.index + m[0].length }
    }
    if (best) signals.push({ kind: "all caps", ...best, weight: 0.9 })
  }

  // money and hype emoji
  MONEY_EMOJI.lastIndex = 0
  const emoji: Array<RegExpExecArray> = []
  for (let m = MONEY_EMOJI.exec(text); m !== null; m = MONEY_EMOJI.exec(text)) emoji.push(m)
  if (emoji.length >= 2) {
    const first = emoji[0]!
    signals.push({ kind: "money emoji", begin: first.index, end: first.index + first[0].length, weight: 0.4 * Math.min(emoji.length, 5) })
  }

  // aggregate
  const weights = signals.map((s) => s.weight).sort((a, b) => b - a)
  let logit = SPAM_BIAS
  weights.forEach((w, i) => (logit += w * DECAY ** i))
  if (promoted && links > 0) logit += 1.0
  if (links > 0 && !promoted && LEGIT_SOURCE.test(text)) logit -= 0.7
  // Lots of ordinary prose around one link is what sourcing looks like.
  if (links === 1 && !promoted && words >= 25) logit -= 0.5
  return { signals, logit, words, links }
}

const repeatedSentence = (text: string, signals: Array<SpamSignal>) => {
  const seen = new Map<string, number>()
  const re = /[^.!?\n]+[.!?]*/gu
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const norm = m[0].toLowerCase().replace(/\s+/gu, " ").trim()
    if (norm.length < 12) continue
    if (seen.has(norm)) {
      const lead = m[0].length - m[0].trimStart().length
      const raw = m[0].trim()
      signals.push({ kind: "repeated sentence", begin: m.index + lead, end: m.index + lead + raw.length, weight: 1.6 })
      return
    }
    seen.set(norm, m.index)
  }
}
