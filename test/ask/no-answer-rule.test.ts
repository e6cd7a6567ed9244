// The no-answer rule on its own (no-answer.ts): which unknown words count as a missing topic, and when a question names
// a feature rather than tells a situation.
import t from 'tap';
import { isCircumstance, isSentence, noAnswer } from '../../server/ask/no-answer.ts';
import { tokenize } from '../../server/ask/text.ts';

t.test('adverbs of manner and time are circumstances, not topics', async (t) => {
  for (const w of ['accidentally', 'suddenly', 'acidentalmente', 'rapidamente', 'yesterday', 'forever', 'ontem', 'repente']) t.ok(isCircumstance(w), w);
  for (const w of ['webhook', 'saml', 'historico', 'pricing', 'ly', 'mente', 'dark']) t.notOk(isCircumstance(w), w);
});

t.test('a sentence tells a situation; a name of a feature is not one', async (t) => {
  for (const q of ['how do I restore a file', 'can other companies see our documents', 'meu agente perdeu a permissão', 'posso mudar o idioma', 'quem pode convidar']) {
    t.ok(isSentence(tokenize(q)), q);
  }
  for (const q of ['two factor authentication', 'histórico de versões de um arquivo', 'webhook when a file changes', 'single sign on with saml', 'modo escuro']) {
    t.notOk(isSentence(tokenize(q)), q);
  }
});

t.test('the decision', async (t) => {
  const decide = (text: string, content: string[], unknown: string[]) => noAnswer(tokenize(text), { content, unknown });
  t.notOk(decide('restore deleted file', ['restore', 'deleted', 'file'], []), 'every word known');
  // A feature named with a word no page uses is not covered, even when its other words are everywhere on the site.
  t.ok(decide('webhook when a file changes', ['webhook', 'file', 'changes'], ['webhook']), 'a name with one unknown word of three');
  t.notOk(decide('can other companies see our documents', ['companies', 'see', 'documents'], ['companies']), 'a sentence with one unknown word of three');
  t.ok(decide('how much are the pricing plans', ['pricing', 'plans'], ['pricing']), 'a short sentence half unknown');
  t.notOk(decide('invite expired yesterday', ['invite', 'expired', 'yesterday'], ['yesterday']), 'an unknown circumstance is no missing topic');
  t.notOk(decide('arquivo apagado acidentalmente', ['arquivo', 'apagado', 'acidentalmente'], ['acidentalmente']), 'nor in Portuguese');
  t.notOk(decide('bring back something I threw away by accident', ['bring', 'back', 'threw', 'away', 'accident'], ['bring', 'away', 'accident']), 'a long situation, 3 of 5 unknown');
  t.ok(decide('my cat keeps sneezing at night', ['cat', 'keeps', 'sneezing', 'night'], ['cat', 'keeps', 'sneezing']), 'a long question, 3 of 4 unknown');
});
