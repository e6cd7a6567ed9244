// The no-answer rule on its own (no-answer.ts): a question goes unanswered only when none of its topic words is known
// to the pages; otherwise the share of its words the pages know scales the scores.
import t from 'tap';
import { isCircumstance, knownShare, noAnswer } from '../../server/ask/no-answer.ts';

t.test('adverbs of manner and time, and numbers, are circumstances, not topics', async (t) => {
  for (const w of ['accidentally', 'suddenly', 'acidentalmente', 'rapidamente', 'yesterday', 'forever', 'ontem', 'repente', '99']) t.ok(isCircumstance(w), w);
  for (const w of ['webhook', 'saml', 'historico', 'pricing', 'ly', 'mente', 'dark', 'v1']) t.notOk(isCircumstance(w), w);
});

t.test('the decision: no answer only when no topic word is known', async (t) => {
  const decide = (content: string[], unknown: string[]) => noAnswer({ content, unknown });
  t.ok(decide([], []), 'function words alone ("who can") name no topic');
  t.notOk(decide(['restore', 'deleted', 'file'], []), 'every word known');
  t.ok(decide(['sync', 'google', 'drive'], ['sync', 'google', 'drive']), 'no word known');
  t.ok(decide(['sneezing', 'yesterday'], ['sneezing', 'yesterday']), 'an unknown circumstance is no topic either');
  // Half a question known, or a quarter, is still a question the site may answer in words it does not use.
  t.notOk(decide(['connect', 'perplexity'], ['perplexity']), 'a short question half unknown');
  t.notOk(decide(['bring', 'back', 'threw', 'away', 'accident'], ['bring', 'away', 'accident']), 'a long situation, 3 of 5 unknown');
  t.notOk(decide(['cat', 'keeps', 'sneezing', 'night'], ['cat', 'sneezing', 'night']), 'one known word of four');
});

t.test('the known share: the topic words some page knows, unknown circumstances left out', async (t) => {
  const share = (content: string[], unknown: string[]) => knownShare({ content, unknown });
  t.equal(share(['restore', 'deleted', 'file'], []), 1);
  t.equal(share(['connect', 'perplexity'], ['perplexity']), 0.5);
  t.equal(share(['cat', 'keeps', 'sneezing', 'night'], ['cat', 'sneezing', 'night']), 0.25);
  t.equal(share(['deleted', 'accidentally'], ['accidentally']), 1, 'an unknown adverb of manner costs nothing');
  t.equal(share(['logged', 'suddenly', 'dashboard'], ['suddenly', 'dashboard']), 0.5);
  t.equal(share([], []), 0);
});
