/**
 * Which fallacies a comment scorer reports from the trained detector's analysis (`FallacyModel`):
 *
 * - none unless the comment's detector log-odds reach the model's threshold (chosen on dev for F1);
 * - the first item quotes the unit (sentence, or clause of a very long sentence) with the largest
 *   share of that score, the one that drives the decision, and is named by the typer's type for
 *   the whole comment;
 * - a further item only for another unit that on its own reaches the threshold, and is at least
 *   as likely fallacious as not (log-odds >= 0), with a type not yet reported: more than one
 *   fallacy only when separate sentences show them.
 */
import { Fallacies } from "@decorum/domain"
import type { FallacyAnalysis } from "../FallacyModel.js"

export interface FallacyItem {
  readonly type: Fallacies.FallacyType
  readonly begin: number
  readonly end: number
}

/** At most this many fallacies per comment. */
export const MAX_FALLACIES = 3

export const fallacyItems = (a: FallacyAnalysis): Array<FallacyItem> => {
  if (!(a.score >= a.threshold) || a.units.length === 0) return []
  let lead = a.units[0]!
  for (const u of a.units) if (u.drive > lead.drive) lead = u
  const items: Array<FallacyItem> = [{ type: a.type, begin: lead.begin, end: lead.end }]
  const bar = Math.max(a.threshold, 0)
  const others = a.units.filter((u) => u !== lead && u.score >= bar).sort((x, y) => y.score - x.score)
  for (const u of others) {
    if (items.length >= MAX_FALLACIES) break
    if (items.some((i) => i.type === u.type)) continue
    items.push({ type: u.type, begin: u.begin, end: u.end })
  }
  return items.sort((x, y) => x.begin - y.begin)
}

/** The wire item of a fallacy: the catalogue's name and explanation, the quote sliced from the text. */
export const fallacyName = (type: Fallacies.FallacyType): string => Fallacies.FallacyCatalogue[type].name
