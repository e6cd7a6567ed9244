// Portuguese and English stop words for /ask, written accent-folded (the analyzer folds before it looks them up).
// Short, hand-kept lists: words that carry no topic in a docs query ("como", "the"), never domain words.

// Chat spellings people type for function words count as them: English contractions without their apostrophe ("cant",
// "didnt"), Portuguese "vc" (você) and "pq" (porque).
// Question frames count as stop words, as their English equivalents do: "preciso", "consigo", "pode" (need, can) and
// "existe"/"existem" ("is there", like "há" and "tem").
const PT = `a ao aos aquela aquelas aquele aqueles aquilo as ate com como da das de dela delas dele deles depois do dos
e ela elas ele eles em entre era eram essa essas esse esses esta estas este estes eu foi fomos for foram ha isso isto ja
la lhe lhes mais mas me mesmo meu meus minha minhas muito na nas nem no nos nossa nossas nosso nossos num numa o os ou
para pela pelas pelo pelos por porque qual quais quando que quem se sem ser seu seus so sua suas tambem te tem tenho
teu teus tu tua tuas um uma umas uns voce voces vos sao esta estao estou sendo sido ter tinha nao sim onde posso pode
podem devo deve preciso consigo meu minha ate apos cada outro outra outros outras qualquer quanto quantos
quantas algum alguma alguns algumas cade existe existem vc vcs pq`;

const EN = `a about above after again against all am an and any are as at be because been before being below between
both but by can could did do does doing down during each few for from further had has have having he her here hers
herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on once
only or other our ours ourselves out over own same she should so some such than that the their theirs them themselves
then there these they this those through to too under until up very was we were what when where which while who whom
why will with would you your yours yourself yourselves get got gets can't cannot dont don't doesnt isnt i'm im my
also any anything something want need needs let lets via cant wont didnt couldnt shouldnt wouldnt arent wasnt
werent havent hasnt hadnt ive youre theyre whats`;

// Words people put in questions that name no topic (chat fillers, contractions' tails, "someone", "pra"). Query side only:
// they are not dropped from the pages, but a question word that is one of them neither matches nor counts as a topic
// word the pages lack (see the no-answer rule in index.ts).
const FILLERS = `able ok okay please thanks thank hi hello someone somebody anyone anybody everyone everybody nobody else
thing things stuff way really actually ever still t s d ll ve re m pra pras pro pros ta ne deu fiz faz fazer faco veio
vem dar coisa coisas alguem ninguem gente verdade favor oi ola obrigado obrigada ai entao tipo jeito`;

function toSet(list: string): ReadonlySet<string> {
  return new Set(list.split(/\s+/).filter(Boolean));
}

export const STOPWORDS: Readonly<Record<'pt' | 'en', ReadonlySet<string>>> = { pt: toSet(PT), en: toSet(EN) };
export const QUERY_FILLERS: ReadonlySet<string> = toSet(FILLERS);

// Adverbs of time: they tell when or how often something happened, not what a question is about (see the no-answer rule
// in no-answer.ts).
const CIRCUMSTANCES = `yesterday today tomorrow tonight forever always never sometimes often ago anymore suddenly
ontem hoje amanha sempre nunca agora ainda repente`;

export const CIRCUMSTANCE_WORDS: ReadonlySet<string> = toSet(CIRCUMSTANCES);

// Words naming the documentation itself: beside a topic they ask for the page about that topic ("api docs", "guia de
// envios"), and say nothing about it; only a question made of them alone is about the docs as such.
const DOCS_WORDS = `doc docs documentation documentacao documentacoes guide guides guia guias manual tutorial tutoriais
tutorials article articles artigo artigos page pages pagina paginas reference referencia`;

export const DOCUMENTATION_WORDS: ReadonlySet<string> = toSet(DOCS_WORDS);
