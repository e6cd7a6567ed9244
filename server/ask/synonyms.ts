// Query-side synonyms for /ask: phrases people type that the pages say differently ("log out" vs "sign out"). Each
// entry maps a folded word sequence found in the query to the docs' wording; the engine adds that wording at a
// discount and keeps the original words, so a synonym can help a page but never hides one.
import { isStopword, stem, tokenize, type Lang } from './text.ts';

const TABLE: Record<Lang, Array<[string, string]>> = {
  en: [
    ['log in', 'sign in'],
    ['login', 'sign in'],
    ['log on', 'sign in'],
    ['signin', 'sign in'],
    ['log out', 'sign out'],
    ['logout', 'sign out'],
    ['log off', 'sign out'],
    ['signout', 'sign out'],
    ['password', 'magic link'],
    ['delete', 'trash'],
    ['recycle bin', 'trash'],
    ['bin', 'trash'],
    ['undelete', 'restore'],
    ['recover', 'restore'],
    ['disk space', 'storage'],
    ['space', 'storage'],
    ['throttle', 'rate limit'],
    ['throttling', 'rate limit'],
    ['api key', 'access token'],
    ['excel', 'xlsx spreadsheet'],
    ['dry run', 'plan'],
    ['deprecated', 'deprecation'],
    ['kick', 'remove member'],
    ['team', 'organization'],
    ['permissions', 'roles scopes'],
    ['language', 'locale'],
  ],
  pt: [
    ['login', 'entrar'],
    ['logar', 'entrar'],
    ['fazer login', 'entrar'],
    ['logout', 'sair'],
    ['deslogar', 'sair'],
    ['senha', 'link mágico'],
    ['apagar', 'excluir lixeira'],
    ['deletar', 'excluir lixeira'],
    ['apaguei', 'excluir lixeira'],
    ['recuperar', 'restaurar'],
    ['espaço', 'armazenamento'],
    ['tirar', 'remover'],
    ['expulsar', 'remover'],
    ['chave de api', 'token de acesso'],
    ['excel', 'xlsx planilha'],
    ['simular', 'planejar'],
    ['simulação', 'planejar'],
    ['time', 'organização'],
    ['equipe', 'organização'],
    ['permissões', 'papéis escopos'],
    ['língua', 'idioma'],
  ],
};

// Matched on stems, so one entry covers most forms of a word ("delete", "deleted", "deleting").
const keyOf = (token: string, lang: Lang) => (isStopword(token, lang) ? token : stem(token, lang));
const COMPILED: Record<Lang, Array<[string[], string[]]>> = {
  en: TABLE.en.map(([from, to]) => [tokenize(from).map((t) => keyOf(t, 'en')), tokenize(to)]),
  pt: TABLE.pt.map(([from, to]) => [tokenize(from).map((t) => keyOf(t, 'pt')), tokenize(to)]),
};

/** Where the phrase starts in the query's keys, or -1. */
function find(keys: readonly string[], phrase: readonly string[]): number {
  outer: for (let i = 0; i + phrase.length <= keys.length; i++) {
    for (let j = 0; j < phrase.length; j++) if (keys[i + j] !== phrase[j]) continue outer;
    return i;
  }
  return -1;
}

/** The docs' wordings (`to`, as folded word lists) for the synonym phrases found in the query tokens, each with the query
 * tokens it stands for (`from`). */
export function expansions(tokens: readonly string[], lang: Lang): Array<{ from: string[]; to: string[] }> {
  const keys = tokens.map((t) => keyOf(t, lang));
  const out: Array<{ from: string[]; to: string[] }> = [];
  for (const [from, to] of COMPILED[lang]) {
    const at = find(keys, from);
    if (at >= 0) out.push({ from: tokens.slice(at, at + from.length), to });
  }
  return out;
}
