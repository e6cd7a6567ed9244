// Text analysis: accent folding, tokenizing, stemming that meets accented and unaccented forms, typo distance, and
// sentence splitting that keeps every sentence a verbatim substring.
import t from 'tap';
import { analyze, editDistance, fold, sentences, stem, tokenize } from '../../server/ask/text.ts';

t.test('fold and tokenize', async (t) => {
  t.equal(fold('Restauração ÉXITO Ç'), 'restauracao exito c');
  t.same(tokenize('files:read / upload_begin, 8 MiB'), ['files', 'read', 'upload', 'begin', '8', 'mib']);
  t.same(tokenize('E-mail e-mails'), ['email', 'emails']);
});

t.test('Portuguese stems meet with and without accents, singular and plural', async (t) => {
  for (const [a, b] of [
    ['sessão', 'sessoes'],
    ['requisição', 'requisicoes'],
    ['organizações', 'organizacao'],
    ['papéis', 'papel'],
    ['erros', 'erro'],
    ['disponíveis', 'disponivel'],
    ['expiração', 'expiracao'],
    ['limites', 'limite'],
  ]) {
    t.equal(stem(tokenize(a)[0], 'pt'), stem(tokenize(b)[0], 'pt'), `${a} = ${b}`);
  }
  t.same(analyze('Como restaurar os arquivos da lixeira', 'pt'), analyze('restaurar arquivo lixeira', 'pt'));
  t.equal(analyze('Como restaurar os arquivos da lixeira', 'pt').length, 3, 'stop words dropped');
});

t.test('Portuguese verb forms stem like their infinitive, by rule', async (t) => {
  // -guei/-quei: the past of -gar/-car verbs; -amos/-emos/-imos: the first person plural, not a plural noun.
  for (const [a, b] of [
    ['joguei', 'jogar'],
    ['apaguei', 'apagar'],
    ['fiquei', 'ficar'],
    ['troquei', 'trocar'],
    ['cheguei', 'chegou'],
    ['apagamos', 'apagar'],
    ['jogamos', 'jogou'],
    ['perdemos', 'perder'],
    ['excluímos', 'excluir'],
    ['perdeu', 'perder'],
    ['entrei', 'entrar'],
    ['mandei', 'mandar'],
  ]) {
    t.equal(stem(tokenize(a)[0], 'pt'), stem(tokenize(b)[0], 'pt'), `${a} = ${b}`);
  }
  // Nouns keep their plurals: the verb rules do not swallow them.
  for (const [a, b] of [
    ['termos', 'termo'],
    ['arquivos', 'arquivo'],
    ['limites', 'limite'],
  ])
    t.equal(stem(a, 'pt'), stem(b, 'pt'), `${a} = ${b}`);
});

t.test('English irregular past forms stem like the verb, short ones too', async (t) => {
  for (const [a, b] of [
    ['threw', 'throw'],
    ['thrown', 'throwing'],
    ['broke', 'breaks'],
    ['forgotten', 'forget'],
    ['sent', 'sending'],
    ['ran', 'runs'],
    ['wrote', 'written'],
    ['chose', 'choose'],
    ['took', 'takes'],
  ]) {
    t.equal(stem(a, 'en'), stem(b, 'en'), `${a} = ${b}`);
  }
  // Forms that are words of another sense keep their own stem.
  t.not(stem('left', 'en'), stem('leave', 'en'));
  t.not(stem('found', 'en'), stem('find', 'en'));
});

t.test('English stems and stop words', async (t) => {
  t.equal(stem('uploading', 'en'), stem('uploads', 'en'));
  t.equal(stem('invitations', 'en'), stem('invite', 'en'));
  t.same(analyze('How do I restore the files?', 'en'), [stem('restore', 'en'), stem('files', 'en')]);
});

t.test('edit distance counts adjacent swaps once and stops past the bound', async (t) => {
  t.equal(editDistance('lixera', 'lixeira', 2), 1);
  t.equal(editDistance('scirpt', 'script', 2), 1);
  t.equal(editDistance('qouta', 'quota', 2), 1);
  t.equal(editDistance('kjhgf', 'quota', 1), 2);
});

t.test('sentences are verbatim and do not split decimals or e.g.', async (t) => {
  const block = 'Parts are 8 MiB. Version 0.54 is used, e.g. by the client! Is it "quoted"? Yes: `code`. Tail';
  const out = sentences(block);
  t.same(out, ['Parts are 8 MiB.', 'Version 0.54 is used, e.g. by the client!', 'Is it "quoted"?', 'Yes: `code`.', 'Tail']);
  for (const s of out) t.ok(block.includes(s));
});
