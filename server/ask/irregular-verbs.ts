// English irregular verbs: past and past participle → base form, so that "threw", "broke" and "forgotten" stem like
// "throw", "break" and "forget" (the stemmer only knows regular endings). General English, not the site's words. Forms
// that are also common words of another sense are left out ("left", "found", "saw", "lay", "lead", "bit", "fed"), and so
// are verbs whose forms are stop words anyway (be, have, do, get).
const TABLE = `arise arose arisen; become became; begin began begun; bend bent; bind bound; break broke broken; bring brought;
build built; buy bought; catch caught; choose chose chosen; come came; deal dealt; dig dug; draw drew drawn;
drive drove driven; eat ate eaten; fight fought; flee fled; fly flew flown; forbid forbade forbidden; forget forgot forgotten;
forgive forgave forgiven; freeze froze frozen; give gave given; go went gone; grow grew grown; hang hung; hear heard;
hide hid hidden; hold held; keep kept; know knew known; lend lent; lose lost; make made; mean meant; meet met;
mistake mistook mistaken; overcome overcame; overtake overtook overtaken; overwrite overwrote overwritten; pay paid;
rewrite rewrote rewritten; ride rode ridden; ring rang rung; run ran; say said; seek sought; sell sold; send sent;
shake shook shaken; shoot shot; show shown; sing sang sung; sink sank sunk; sit sat; sleep slept; slide slid;
speak spoke spoken; spend spent; spin spun; stand stood; steal stole stolen; stick stuck; strike struck; swear swore sworn;
sweep swept; take took taken; teach taught; tear tore torn; tell told; think thought; throw threw thrown;
understand understood; undergo underwent undergone; undo undid undone; uphold upheld; wake woke woken; wear wore worn;
win won; withdraw withdrew withdrawn; write wrote written`;

/** Irregular past form → base form. */
export const IRREGULAR_VERBS: ReadonlyMap<string, string> = new Map(
  TABLE.split(';').flatMap((entry) => {
    const [base, ...forms] = entry.trim().split(/\s+/);
    return forms.map((form) => [form, base] as const);
  }),
);
