"""NLTK's stop-word lists for the Snowball languages of XL-Sum, shipped so that stemming is exact offline.

XL-Sum's scorer stems with ``SnowballStemmer(lang, ignore_stopwords=True)``: the words of NLTK's
``stopwords`` corpus are left unstemmed.  That corpus is a download (``nltk.download("stopwords")``),
not part of the nltk package, so the anchor cannot stem these languages offline, and a scorer that
read the corpus when present would give numbers that depend on what is installed.  The lists are
therefore shipped here and always used (``multilingual_stemmers``): english, french, portuguese,
russian, spanish -- every XL-Sum language with a Snowball stemmer except arabic (see below).

Version: the lists equal NLTK's ``stopwords`` corpus as ``nltk.download("stopwords")`` gives it since
nltk_data commit 47111d8 (2025-02-20, 19 English pronoun contractions added, nltk_data PR #228);
:data:`VERSION` names it in signatures.  Older NLTK downloads differ: English had 179 words (before
2025-02-20) and 127 (the PostgreSQL list) in early versions; French had 155 (without ``ils``, ``les``);
Portuguese 203 (without ``é``, ``ser``, ``estar``, ``haver``); Spanish before 2019 spelled
``vosostros``, ``vosostras``.

Origin and licence: each list is the Snowball project's stop-word list as PostgreSQL ships it
(``src/backend/snowball/stopwords/<language>.stop``, Debian package ``postgresql-15``:
``/usr/share/postgresql/15/tsearch_data/<language>.stop``; PostgreSQL Licence, the lists from the
Snowball project, BSD-3-Clause, (c) 2001 Dr Martin Porter, (c) 2002 Richard Boulton), which is where
NLTK's corpus README says its lists come from -- :data:`POSTGRESQL`, byte for byte in file order --
plus the words NLTK added to them, listed apart in :data:`NLTK_ADDED` (single function words and
contraction stems, from nltk_data's stopwords corpus and its issue #22 / PR #228), and the two
Spanish spellings NLTK corrected (:data:`NLTK_CORRECTED`, nltk_data issue #130).  Russian is the
PostgreSQL list unchanged.  Spark's ``spark-mllib`` jar (Apache-2.0,
``org/apache/spark/ml/feature/stopwords/``, a copy of an older NLTK corpus) holds the same
Portuguese, Russian and (uncorrected) Spanish lists and the French one plus ``les``; its English
list is Spark's own (181 words) and is not used.  ``tests/test_snowball_stopwords.py`` checks the
lists against both sources when they are installed.

Arabic is not shipped: NLTK's Arabic list has no source here with a stated licence (it is neither
in PostgreSQL/Snowball nor in Spark), so arabic keeps the old rule (NLTK's corpus when it is
installed, else stop words are stemmed too, with :class:`multilingual_stemmers.StopwordsMissingWarning`).

Check values: :data:`SHA256` is the sha256 of each list's words, sorted, joined by ``"\\n"``, UTF-8.

>>> len(words("english")), "having" in words("english"), words("arabic")
(198, True, None)
"""
import hashlib
from typing import Dict, FrozenSet, Optional, Tuple

VERSION = "nltk-stopwords-2025-02-20"

# The Snowball stop-word lists as PostgreSQL ships them (tsearch_data/<language>.stop), in file order.
POSTGRESQL: Dict[str, str] = {
    "english": """
    i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she
    her hers herself it its itself they them their theirs themselves what which who whom this that
    these those am is are was were be been being have has had having do does did doing a an the and
    but if or because as until while of at by for with about against between into through during
    before after above below to from up down in out on off over under again further then once here
    there when where why how all any both each few more most other some such no nor not only own
    same so than too very s t can will just don should now
""",
    "french": """
    au aux avec ce ces dans de des du elle en et eux il je la le leur lui ma mais me même mes moi
    mon ne nos notre nous on ou par pas pour qu que qui sa se ses son sur ta te tes toi ton tu un
    une vos votre vous c d j l à m n s t y été étée étées étés étant étante étants étantes suis es
    est sommes êtes sont serai seras sera serons serez seront serais serait serions seriez seraient
    étais était étions étiez étaient fus fut fûmes fûtes furent sois soit soyons soyez soient fusse
    fusses fût fussions fussiez fussent ayant ayante ayantes ayants eu eue eues eus ai as avons avez
    ont aurai auras aura aurons aurez auront aurais aurait aurions auriez auraient avais avait
    avions aviez avaient eut eûmes eûtes eurent aie aies ait ayons ayez aient eusse eusses eût
    eussions eussiez eussent
""",
    "portuguese": """
    de a o que e do da em um para com não uma os no se na por mais as dos como mas ao ele das à seu
    sua ou quando muito nos já eu também só pelo pela até isso ela entre depois sem mesmo aos seus
    quem nas me esse eles você essa num nem suas meu às minha numa pelos elas qual nós lhe deles
    essas esses pelas este dele tu te vocês vos lhes meus minhas teu tua teus tuas nosso nossa
    nossos nossas dela delas esta estes estas aquele aquela aqueles aquelas isto aquilo estou está
    estamos estão estive esteve estivemos estiveram estava estávamos estavam estivera estivéramos
    esteja estejamos estejam estivesse estivéssemos estivessem estiver estivermos estiverem hei há
    havemos hão houve houvemos houveram houvera houvéramos haja hajamos hajam houvesse houvéssemos
    houvessem houver houvermos houverem houverei houverá houveremos houverão houveria houveríamos
    houveriam sou somos são era éramos eram fui foi fomos foram fora fôramos seja sejamos sejam
    fosse fôssemos fossem for formos forem serei será seremos serão seria seríamos seriam tenho tem
    temos tém tinha tínhamos tinham tive teve tivemos tiveram tivera tivéramos tenha tenhamos tenham
    tivesse tivéssemos tivessem tiver tivermos tiverem terei terá teremos terão teria teríamos
    teriam
""",
    "russian": """
    и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по только ее мне
    было вот от меня еще нет о из ему теперь когда даже ну вдруг ли если уже или ни быть был него до
    вас нибудь опять уж вам ведь там потом себя ничего ей может они тут где есть надо ней для мы
    тебя их чем была сам чтоб без будто чего раз тоже себе под будет ж тогда кто этот того потому
    этого какой совсем ним здесь этом один почти мой тем чтобы нее сейчас были куда зачем всех
    никогда можно при наконец два об другой хоть после над больше тот через эти нас про всего них
    какая много разве три эту моя впрочем хорошо свою этой перед иногда лучше чуть том нельзя такой
    им более всегда конечно всю между
""",
    "spanish": """
    de la que el en y a los del se las por un para con no una su al lo como más pero sus le ya o
    este sí porque esta entre cuando muy sin sobre también me hasta hay donde quien desde todo nos
    durante todos uno les ni contra otros ese eso ante ellos e esto mí antes algunos qué unos yo
    otro otras otra él tanto esa estos mucho quienes nada muchos cual poco ella estar estas algunas
    algo nosotros mi mis tú te ti tu tus ellas nosotras vosostros vosostras os mío mía míos mías
    tuyo tuya tuyos tuyas suyo suya suyos suyas nuestro nuestra nuestros nuestras vuestro vuestra
    vuestros vuestras esos esas estoy estás está estamos estáis están esté estés estemos estéis
    estén estaré estarás estará estaremos estaréis estarán estaría estarías estaríamos estaríais
    estarían estaba estabas estábamos estabais estaban estuve estuviste estuvo estuvimos estuvisteis
    estuvieron estuviera estuvieras estuviéramos estuvierais estuvieran estuviese estuvieses
    estuviésemos estuvieseis estuviesen estando estado estada estados estadas estad he has ha hemos
    habéis han haya hayas hayamos hayáis hayan habré habrás habrá habremos habréis habrán habría
    habrías habríamos habríais habrían había habías habíamos habíais habían hube hubiste hubo
    hubimos hubisteis hubieron hubiera hubieras hubiéramos hubierais hubieran hubiese hubieses
    hubiésemos hubieseis hubiesen habiendo habido habida habidos habidas soy eres es somos sois son
    sea seas seamos seáis sean seré serás será seremos seréis serán sería serías seríamos seríais
    serían era eras éramos erais eran fui fuiste fue fuimos fuisteis fueron fuera fueras fuéramos
    fuerais fueran fuese fueses fuésemos fueseis fuesen sintiendo sentido sentida sentidos sentidas
    siente sentid tengo tienes tiene tenemos tenéis tienen tenga tengas tengamos tengáis tengan
    tendré tendrás tendrá tendremos tendréis tendrán tendría tendrías tendríamos tendríais tendrían
    tenía tenías teníamos teníais tenían tuve tuviste tuvo tuvimos tuvisteis tuvieron tuviera
    tuvieras tuviéramos tuvierais tuvieran tuviese tuvieses tuviésemos tuvieseis tuviesen teniendo
    tenido tenida tenidos tenidas tened
""",
}

# The words NLTK's corpus adds to the PostgreSQL list (English: 52 in nltk_data issue #22, 19 in PR #228).
NLTK_ADDED: Dict[str, str] = {
    "english": """
    you're you've you'll you'd she's it's that'll don't should've d ll m o re ve y ain aren aren't
    couldn couldn't didn didn't doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't ma
    mightn mightn't mustn mustn't needn needn't shan shan't shouldn shouldn't wasn wasn't weren
    weren't won won't wouldn wouldn't they've i'll i'd they'll he's i'm he'd it'd i've it'll she'd
    they'd we'd we're we'll we've he'll they're she'll
""",
    "french": """
    ils les
""",
    "portuguese": """
    é ser estar haver
""",
    "russian": "",
    "spanish": "",
}

# Words NLTK's corpus spells differently from the PostgreSQL list (nltk_data issue #130, 2019: the
# Spanish "vosostros", "vosostras" corrected in place).
NLTK_CORRECTED: Dict[str, Dict[str, str]] = {"spanish": {"vosostros": "vosotros", "vosostras": "vosotras"}}

SHA256: Dict[str, str] = {
    "english": "47608d511aa4fec95139d41e487109ab4a260313745d397210dbf966b1d3c225",   # 198 words
    "french": "d6c46dcf683b2dbd264b9a7fff180a8b512f4a54d5f187aacc2b0d24db91fe04",   # 157 words
    "portuguese": "5ca9ecc8016b75773e8f98ef4679b59789fb91a78dcfc18b4898ba2b6d1c3949",   # 207 words
    "russian": "290ed6923974449a9426e4fd186649970433146ae9c40eb66bd0cd763e6d904a",   # 151 words
    "spanish": "ab3e8f632a5fe61fd47cd969651274ca5ff80aa108c19179b670a02fb4a6c7ea",   # 313 words
}

LANGUAGES: Tuple[str, ...] = tuple(POSTGRESQL)

_words: Dict[str, FrozenSet[str]] = {}


def word_list(language: str) -> Tuple[str, ...]:
    """The list for ``language`` in order: the PostgreSQL list (with NLTK's corrections in place),
    then NLTK's additions.

    >>> word_list("french")[-2:], "vosotros" in word_list("spanish")
    (('ils', 'les'), True)
    """
    corrected = NLTK_CORRECTED.get(language, {})
    return tuple([corrected.get(w, w) for w in POSTGRESQL[language].split()] + NLTK_ADDED[language].split())


def checksum(words) -> str:
    """sha256 of the words, sorted, joined by newlines (UTF-8).

    >>> checksum(word_list("spanish")) == SHA256["spanish"]
    True
    """
    return hashlib.sha256("\n".join(sorted(words)).encode("utf-8")).hexdigest()


def words(language: str) -> Optional[FrozenSet[str]]:
    """NLTK's stop words for ``language`` as a set, or None when no list is shipped for it.

    >>> sorted(words("portuguese") - set(POSTGRESQL["portuguese"].split()))
    ['estar', 'haver', 'ser', 'é']
    """
    found = _words.get(language)
    if found is None:
        if language not in POSTGRESQL:
            return None
        listed = word_list(language)
        if checksum(listed) != SHA256[language]:
            raise RuntimeError("the shipped %s stop-word list does not match its check value" % language)
        found = _words[language] = frozenset(listed)
    return found
