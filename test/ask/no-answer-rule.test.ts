// The no-answer rule on its own (no-answer.ts): which unknown words count as a missing topic.
import t from 'tap';
import { isCircumstance, noAnswer } from '../../server/ask/no-answer.ts';

t.test('adverbs of manner and time, and numbers, are circumstances, not topics', async (t) => {
  for (const w of ['accidentally', 'suddenly', 'acidentalmente', 'rapidamente', 'yesterday', 'forever', 'ontem', 'repente', '99']) t.ok(isCircumstance(w), w);
  for (const w of ['webhook', 'saml', 'historico', 'pricing', 'ly', 'mente', 'dark', 'v1']) t.notOk(isCircumstance(w), w);
});

t.test('the decision', async (t) => {
  const decide = (content: string[], unknown: string[]) => noAnswer({ content, unknown });
  t.ok(decide([], []), 'function words alone ("who can") name no topic');
  t.notOk(decide(['restore', 'deleted', 'file'], []), 'every word known');
  t.ok(decide(['pricing', 'plans'], ['pricing']), 'a short question half unknown');
  t.notOk(decide(['companies', 'see', 'documents'], ['companies']), 'a short question, one unknown word of three');
  t.notOk(decide(['deleted', 'accidentally'], ['accidentally']), 'an unknown adverb of manner is no missing topic');
  t.notOk(decide(['apagado', 'acidentalmente'], ['acidentalmente']), 'nor in Portuguese');
  t.notOk(decide(['logged', 'suddenly'], ['suddenly']), 'nor one of time');
  t.ok(decide(['caiu', 'sessao', 'repente'], ['caiu', 'repente']) === decide(['caiu', 'sessao'], ['caiu']), 'a circumstance leaves both counts');
  t.notOk(decide(['bring', 'back', 'threw', 'away', 'accident'], ['bring', 'away', 'accident']), 'a long situation, 3 of 5 unknown');
  t.ok(decide(['cat', 'keeps', 'sneezing', 'night'], ['cat', 'keeps', 'sneezing']), 'a long question, 3 of 4 unknown');
});
