import { AccountId, ArticleContextId, type ArticleContext } from "@decorum/domain"
import { Schema } from "effect"

export const article: ArticleContext = {
  id: Schema.decodeSync(ArticleContextId)("6f1c2a4e-8b7d-4c3a-9e2f-1a2b3c4d5e6f"),
  accountId: Schema.decodeSync(AccountId)(1),
  text: "The city council voted to expand the tram network, citing congestion and air quality.",
  title: "Council expands tram network",
  topicDescription: null,
  sourceUrl: null,
  profile: { version: 1, terms: [], entities: [], summary: "" },
  createdAt: new Date(0)
}

/** Varied comments for property-style checks (quotes verbatim, schemas hold). */
export const corpus: ReadonlyArray<string> = [
  "I think the council is right here, because congestion costs everyone time. For example, the 14 bus is always late.",
  "You are an idiot and your argument is garbage.",
  "What a load of bullsh1t, f*ck this council.",
  "Honestly?? Nobody cares. Whatever.",
  "All politicians are liars. Either we vote them out or nothing changes.",
  "Muslims are vermin and should be deported.",
  "I will kill you if I ever see you again.",
  "me too",
  "First!",
  "👍👍👍",
  "+1",
  "Check out my channel https://youtube.com/@trams4ever and subscribe!!! DM me to earn $500 a day 💰💰",
  "https://www",
  "According to the council's own report (https://example.org/report.pdf), ridership grew 12% last year.",
  "When I was a student I took the tram every day; my mother still does. It depends on the route, though.",
  "Hey cutie, you're so hot 😘 wanna go out with me?",
  "THIS IS THE WORST DECISION EVER MADE BY ANY COUNCIL!!!!!!",
  "asdfgh qwerty zxcvbn",
  "But what about the bikes? Experts say trams are fine. It has always been done this way.",
  "Ce commentaire est en français et parle du tramway.",
  "The   fucking   tram is late again… typical. Yeah right, “world class transit”.",
  "Thanks for the thoughtful article. I'm sorry to hear about the accident; I hope everyone recovers.",
  "Call me at +1 (555) 123-4567 or email deals@cheap-pills.biz for cheap viagra",
  "you people are all the same, go back to school",
  "Is there any data on how the tram affects house prices? I wonder if anyone has studied it.",
  "İstanbul’s trams are great — ﬁne engineering, naïve critics. 𝒻𝓊𝒸𝓀 that.",
  "",
  "   ",
  "a",
  "The author clearly has no idea what she is talking about, what a moron."
]
