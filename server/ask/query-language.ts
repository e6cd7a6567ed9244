// The language of a question that states none: from its function words when they all belong to one language, else
// guessed from how often each language's pages use its words.
import { isStopword, type Lang } from './text.ts';
import { nearest } from './vocabulary.ts';
import type { SubIndex } from './sub-index.ts';

/** The query's language when none is asked: each word votes by how much more often the pages of one language use it
 * (English words also occur in Portuguese pages, as code names, but far less often). Stop words vote too. */
export function guessLang(subs: Record<Lang, SubIndex>, tokens: readonly string[]): Lang | null {
  let vote = 0; // > 0: pt
  for (const token of new Set(tokens)) {
    // A word no page writes is a typo: it belongs to the language of the words it is a misspelling of ("scops" is
    // "scopes", which the English pages use far more often than the Portuguese ones quote it).
    const typo = !isStopword(token, 'pt') && !isStopword(token, 'en') && !subs.pt.vocab.words.has(token) && !subs.en.vocab.words.has(token);
    const uses = (l: Lang) => (isStopword(token, l) ? 20 : typo ? nearest(subs[l].vocab, token).uses : (subs[l].vocab.words.get(token)?.count ?? 0));
    const pt = uses('pt');
    const en = uses('en');
    vote += Math.log((pt + 1) / (en + 1));
  }
  if (Math.abs(vote) < 1) return null;
  return vote > 0 ? 'pt' : 'en';
}

/** The language of the question's grammar: its function words that only one language uses ("de", "pra", "o que"
 * against "the", "how", "my"), when they all agree. Technical words are borrowed across languages ("rate limit",
 * "invite" in a Portuguese question); function words are not, so they tell the reader's language. */
export function grammarLang(tokens: readonly string[]): Lang | null {
  let pt = 0;
  let en = 0;
  for (const token of tokens) {
    const inPt = isStopword(token, 'pt');
    const inEn = isStopword(token, 'en');
    if (inPt && !inEn) pt++;
    else if (inEn && !inPt) en++;
  }
  if (pt > 0 && en === 0) return 'pt';
  if (en > 0 && pt === 0) return 'en';
  return null;
}
