"""Let NLTK (and so XL-Sum's scorer, ``SnowballStemmer(lang, ignore_stopwords=True)``) read the
stop-word lists this package ships, as if ``nltk.download("stopwords")`` had installed them: the
lists are written as NLTK's corpus directory (``corpora/stopwords/<language>``, one word a line) and
``nltk.stem.snowball`` gets NLTK's own stopwords reader rooted there; the directory goes first on
``nltk.data.path`` (NLTK's path checks refuse readers outside it).  ``nltk.corpus.stopwords`` is left
alone, so nothing else in the session binds to this directory."""
from rouge_full_metric import multilingual_stemmers, snowball_stopwords


def write_nltk_data(root):
    """Write the shipped lists under ``root`` as NLTK's stopwords corpus (plus, for the Snowball
    languages without a shipped list, NLTK's own list when its corpus is installed); return ``root``."""
    folder = root / "corpora" / "stopwords"
    folder.mkdir(parents=True, exist_ok=True)
    for language in multilingual_stemmers.SNOWBALL:
        if language in snowball_stopwords.LANGUAGES:
            words = snowball_stopwords.word_list(language)
        else:
            words = multilingual_stemmers._stopwords(language)
            if words is None:
                continue
        (folder / language).write_text("\n".join(words) + "\n", encoding="utf-8")
    return root


def point_nltk_at(root, monkeypatch):
    """Make NLTK's Snowball stemmers read their stop words from ``root`` (undone by ``monkeypatch``)."""
    import nltk.corpus.reader
    import nltk.data
    import nltk.stem.snowball

    reader = getattr(nltk.corpus.reader, "StopwordsCorpusReader", nltk.corpus.reader.WordListCorpusReader)
    monkeypatch.setattr(nltk.data, "path", [str(root)] + list(nltk.data.path))
    monkeypatch.setattr(nltk.stem.snowball, "stopwords",
                        reader(str(root / "corpora" / "stopwords"), r"(?!README|\.).*", encoding="utf8"))
