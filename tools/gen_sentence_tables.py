#!/usr/bin/env python3
# ruff: noqa: RUF001  (word lists in many scripts; one list a line)
"""Write the frozen tables of the sentence rules into chunker_py/text/.

sentence_chars.py  the letter classes and scripts the rules look at (Unicode, from `regex`)
sentence_words.py  abbreviations, sentence starters and month names per language, from
                   pySBD's language files (MIT licence) plus this project's own additions

Dev-only (run once, commit the output): ``python tools/gen_sentence_tables.py``, with the
`regex` and `pysbd` pinned in requirements-test.txt installed. tests/core/text/ checks
that the committed files equal what this writes.

Why frozen and not `unicodedata` at run time: `unicodedata` follows the Unicode version of
whichever Python runs (14.0 in CPython 3.11, 16.0 in Pyodide), so a capital letter new in
Unicode 16 would end a sentence in the page and not in the CLI.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import regex

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "chunker_py" / "text"
PER_LINE = 10

# Character classes, in the order of chunker_py.text.sentence_chars's numbers.
CLASSES = (
    ("UPPER", r"[\p{Lu}\p{Lt}]"),  # capitals (and title-case digraphs)
    ("LOWER", r"\p{Ll}"),
    ("CASELESS", r"[\p{Lo}\p{Lm}]"),  # letters of scripts without case (CJK, Arabic, ...)
    ("DIGIT", r"\p{Nd}"),
    ("MARK", r"\p{M}"),  # combining marks (Indic vowel signs, accents)
)
# Scripts whose letters decide the automatic language (and Thai's space rule).
SCRIPTS = (
    "Latin", "Greek", "Cyrillic", "Armenian", "Hebrew", "Arabic", "Devanagari", "Bengali",
    "Thai", "Ethiopic", "Myanmar", "Han", "Hiragana", "Katakana", "Hangul", "Khmer",
    "Georgian", "Tamil", "Telugu", "Kannada", "Malayalam", "Gujarati", "Gurmukhi",
)  # fmt: skip

# pySBD language module -> our language code
PYSBD = {
    "english": "en", "deutsch": "de", "french": "fr", "spanish": "es", "italian": "it",
    "dutch": "nl", "danish": "da", "polish": "pl", "russian": "ru", "bulgarian": "bg",
    "kazakh": "kk", "slovak": "sk", "greek": "el", "arabic": "ar", "persian": "fa",
}  # fmt: skip

# Our own additions (lower case, no trailing dot), on top of pySBD's lists.
EXTRA_ABBREVIATIONS = {
    "en": "a.m p.m e.u u.k u.s.a approx ca cf dept est fig figs jr sr vol vols ed eds eq eqs "
    "ch chap sec secs para no nos al mt ft ave blvd rd st etc vs viz inc ltd co corp ph.d "
    "b.a m.a b.sc m.sc d.c i.e e.g n.b r.i.p a.d b.c",
    "de": "abb abs adr allg anh anm bd bsp bzgl bzw ca d.h dr etc evtl f ff frl geb ggf hr hrsg "
    "inkl jh jhd kap kl mio mrd nr o.a o.g o.ä rd s sog str tel u.a u.ä usw u.s.w v.a vgl "
    "z.b z.t zb zit ziff",
    "fr": "m mm mme mlle mgr dr pr st ste env p.ex c.-à-d cf etc n° no vol chap éd fig",
    "es": "sr sra srta sres dña dn ud uds vd vds dr dra pág págs aprox etc p.ej núm tel",
    "it": "sig sigg sig.ra dott prof ecc pag vol cap n es",
    "pt": "sr sra srs dr dra prof pág etc p.ex nº vol cap",
    "nl": "dhr mevr mr dr prof blz bijv bv enz nr d.w.z o.a e.d m.b.t",
    "da": "hr fr dr nr bl.a f.eks osv mht ca jf pga",
    "pl": "np tzw itd itp dr prof mgr inż ul nr str r ok godz",
    "ru": "г гг т.е т.д т.п см др проф ул стр с им рис тыс млн млрд",
    "uk": "вул м г гг журн ім проф д-р доц акад тис грн ст с см див т.д т.п р рр обл пл просп "
    "год хв чл стор вид зв т.зв",
    "el": "κ κα δρ π.χ κτλ σελ",
}
# pySBD's English list (which Greek and Persian inherit) holds US state codes that are also
# everyday words; after them a dot ends a sentence far more often than not.
NOT_ABBREVIATIONS = frozenset(
    [
        "is",
        "me",
        "man",
        "may",
        "miss",
        "ill",
        "id",
        "ok",
        "con",
        "del",
        "mass",
        "wash",
        "ken",
        "ind",
        "min",
        "mo",
        "ore",
        "la",
        "pa",
        "ga",
        "ida",
        "ala",
        "alta",
        "arc",
        "bart",
        "dak",
        "ens",
        "sat",
        "cal",
    ]
)
# Prepositive abbreviations: a title or prefix that is followed by what it names, so it does
# not end a sentence even before a capital (pySBD's PREPOSITIVE_ABBREVIATIONS, extended).
EXTRA_PREPOSITIVE = {
    "en": "dr mr mrs ms mx prof rev hon gov gen sen rep capt col lt sgt st mt messrs mme mlle "
    "e.g i.e cf vs viz approx ca",
    "de": "dr prof hr fr frl st bzw vgl z.b d.h u.a sog ca evtl ggf inkl usw z.t o.ä",
    "fr": "m mm mme mlle mgr dr pr st ste p.ex c.-à-d cf",
    "es": "sr sra srta sres dña dn ud uds dr dra p.ej",
    "it": "sig sigg dott prof",
    "pt": "sr sra srs dr dra prof p.ex",
    "nl": "dhr mevr mr dr prof bijv",
    "da": "hr fr dr f.eks skt",
    "pl": "dr prof mgr inż np tzw",
    "ru": "г проф им ул см т.е",
    "uk": "вул м г журн ім проф д-р доц акад пл просп обл",
    "el": "κ κα δρ π.χ",
}
# Abbreviations that stand before a number (No. 5, p. 55, Art. 3).
EXTRA_NUMBER = {
    "en": "no nos nr art p pp fig figs vol vols ch chap sec eq eqs para ex jan feb mar apr jun "
    "jul aug sep sept oct nov dec",
    "de": "nr no art abs s kap abb bd ziff",
    "fr": "no n° p vol chap art fig",
    "es": "núm no pág págs art vol cap tel ext cra ene feb mar abr may jun jul ago sep sept "
    "oct nov dic",
    "it": "n pag art vol cap",
    "pt": "nº n pág art vol cap",
    "nl": "nr blz art",
    "da": "nr s",
    "pl": "nr s str art",
    "ru": "№ с стр ст рис",
    "uk": "№ стор ст рис",
}
MONTHS = {
    "de": "Januar Jänner Februar März April Mai Juni Juli August September Oktober November "
    "Dezember Jan Feb Mär Apr Jun Jul Aug Sep Sept Okt Nov Dez",
    "da": "januar februar marts april maj juni juli august september oktober november december",
    "nl": "januari februari maart april mei juni juli augustus september oktober november december",
    "pl": "stycznia lutego marca kwietnia maja czerwca lipca sierpnia września października "
    "listopada grudnia",
    "fi": "tammikuuta helmikuuta maaliskuuta huhtikuuta toukokuuta kesäkuuta heinäkuuta "
    "elokuuta syyskuuta lokakuuta marraskuuta joulukuuta",
    "sk": "januára februára marca apríla mája júna júla augusta septembra októbra novembra "
    "decembra",
}
# Words that typically begin a sentence: after an abbreviation that may also end one
# ("Co.", "U.S.", "Jr."), such a word means the abbreviation did end it (pySBD's
# SENTENCE_STARTERS, extended).
EXTRA_STARTERS = {
    "en": "A An And After Also As At Being But Did Do Does During For From He Her His How "
    "However I If In It Its Millions More My No Not Now On Once One Our She So Some Such "
    "That The Their Then There These They This Those Thus To We What When Where Which While "
    "Who Why With Yes You Your",
    "de": "Aber Alle Als Am Auch Auf Bei Da Dabei Damit Danach Dann Das Dass Dem Den Der Des "
    "Deshalb Die Dies Diese Dieser Doch Dort Du Ein Eine Einer Er Es Für Heute Hier Ich Ihr "
    "Im In Ist Jetzt Man Mein Mit Nach Nun Ob Oder So Sie Und Unser Warum Was Wenn Wer Wie "
    "Wir Zum Zur",
    "fr": "Il Elle Ils Elles Je Nous Vous On Le La Les Un Une Des Ce Cette Mais Et Puis Donc "
    "Alors Ensuite Enfin",
    "es": "El La Los Las Un Una Él Ella Ellos Yo Nosotros Pero Y Entonces Luego Después Es "
    "Esta Este Eso",
    "da": "Hvad Hvor Hvordan Hvorfor Hvem Hvornår Det Den Der De Jeg Du Han Hun Vi I Men Og "
    "Så Nu Her Er Kan Vil",
    "nl": "De Het Een Ik Jij Hij Zij Wij Maar En Dan Toen Wat Waar Hoe Waarom Wie",
    "it": "Il Lo La I Gli Le Un Una Io Lui Lei Noi Ma E Poi Allora Che Come Dove Perché",
    "pt": "O A Os As Um Uma Eu Ele Ela Nós Mas E Então Depois Que Como Onde Porque",
}
# Function words that tell Latin-script languages apart (the automatic language).
STOPWORDS = {
    "en": "the and of to is that it was for with this are not",
    "de": "der die und das ist nicht mit sich auf dem den ein eine zu",
    "fr": "le les et est des une dans pour pas que qui sur",
    "es": "el los las y es del una por con para que se",
    "it": "il di che è della per una sono gli non nel ha si lo",
    "pt": "o os e é do da não uma com para que em",
    "nl": "de het een en van is dat niet op voor zijn",
    "da": "og det er ikke at en til på med som",
    "pl": "i w nie się na jest że z do to",
    "sk": "a je sa na že v do to ako som",
    "fi": "ja on ei se että oli hän kun mutta",
}

HEADER = '''"""{what}, generated by tools/gen_sentence_tables.py. Do not edit.

{more}
"""

# fmt: off
# ruff: noqa: {noqa}
'''


EVERY_CHARACTER = "".join(chr(cp) for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF)


def ranges_of(pattern: str) -> list[tuple[int, int]]:
    """Inclusive runs of the code points matching ``pattern`` (one character class)."""
    runs: list[tuple[int, int]] = []
    for match in regex.finditer(pattern + "+", EVERY_CHARACTER, flags=regex.V1):
        first, last = _code_point(match.start()), _code_point(match.end() - 1)
        if first < 0xD800 <= last:  # a run across the (absent) surrogates is two runs
            runs += [(first, 0xD7FF), (0xE000, last)]
        else:
            runs.append((first, last))
    return runs


def _code_point(index: int) -> int:
    return index if index < 0xD800 else index + 0x800


def flat(name: str, runs: list[tuple[int, int]]) -> str:
    values = [f"0x{v:X}" for run in runs for v in run]
    lines = [", ".join(values[i : i + PER_LINE]) for i in range(0, len(values), PER_LINE)]
    return f"{name} = (\n" + "".join(f"    {line},\n" for line in lines) + ")\n"


def chars_module() -> str:
    version = regex.__version__
    out = [
        HEADER.format(
            what=f"Letter classes and scripts for the sentence rules, from regex {version}",
            more="Ranges are flat tuples: first, last, first, last, ... (inclusive).",
            noqa="E501",
        ),
        f'REGEX_VERSION = "{version}"\n',
    ]
    for name, pattern in CLASSES:
        out.append("\n" + flat(name, ranges_of(pattern)))
    for script in SCRIPTS:
        out.append("\n" + flat(script.upper(), ranges_of(rf"[\p{{Script={script}}}&&\p{{L}}]")))
    out.append(f"\nSCRIPTS = {tuple(s.upper() for s in SCRIPTS)!r}\n")
    return "".join(out)


def words(text: str) -> list[str]:
    return text.split()


def pysbd_lists() -> dict[str, dict[str, set[str]]]:
    found: dict[str, dict[str, set[str]]] = {}
    for module_name, code in PYSBD.items():
        module = importlib.import_module(f"pysbd.lang.{module_name}")
        cls = next(
            v
            for k, v in vars(module).items()
            if isinstance(v, type) and hasattr(v, "iso_code") and v.iso_code == code
        )
        abbr = cls.Abbreviation
        starters = getattr(cls.AbbreviationReplacer, "SENTENCE_STARTERS", []) or []
        found[code] = {
            "abbreviations": {a.strip().lower() for a in abbr.ABBREVIATIONS if a.strip()}
            - NOT_ABBREVIATIONS,
            "prepositive": {a.strip().lower() for a in abbr.PREPOSITIVE_ABBREVIATIONS if a.strip()},
            "number": {a.strip().lower() for a in abbr.NUMBER_ABBREVIATIONS if a.strip()},
            "starters": {s for s in starters if s},
        }
    return found


def words_module() -> str:
    import pysbd

    lists = pysbd_lists()
    languages = sorted(set(lists) | set(EXTRA_ABBREVIATIONS) | set(MONTHS) | set(STOPWORDS))
    out = [
        HEADER.format(
            what=f"Abbreviations, sentence starters, month names and function words per "
            f"language, from pySBD {pysbd.__version__} plus this project's additions",
            more=(
                "pySBD's lists: Copyright (c) 2019 Nipun Sadvilkar, MIT licence (see\n"
                "tests/data/licenses/pySBD-LICENSE). Abbreviations are lower case without\n"
                "their last dot; starters, months and function words as written."
            ),
            noqa="E501, RUF001, SIM905",
        )
    ]

    def table(name: str, key: str, extra: dict[str, str]) -> None:
        out.append(f"\n{name}: dict[str, frozenset[str]] = {{\n")
        for code in languages:
            items = set(lists.get(code, {}).get(key, set())) | set(words(extra.get(code, "")))
            if items:
                body = " ".join(sorted(items))
                out.append(f"    {code!r}: frozenset({body!r}.split()),\n")
        out.append("}\n")

    table("ABBREVIATIONS", "abbreviations", EXTRA_ABBREVIATIONS)
    table("PREPOSITIVE", "prepositive", EXTRA_PREPOSITIVE)
    table("NUMBER", "number", EXTRA_NUMBER)
    table("STARTERS", "starters", EXTRA_STARTERS)
    table("TITLES", "", EXTRA_PREPOSITIVE)
    table("MONTHS", "", MONTHS)
    table("STOPWORDS", "", STOPWORDS)
    return "".join(out)


def formatted(source: str, name: str) -> str:
    """``source`` as ``ruff format`` leaves it (the build checks the format)."""
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--stdin-filename", name, "-"],
        input=source, capture_output=True, text=True, check=True, cwd=ROOT,
    )  # fmt: skip
    return done.stdout


def main() -> int:
    (PACKAGE / "sentence_chars.py").write_text(
        formatted(chars_module(), "sentence_chars.py"), "utf-8"
    )
    (PACKAGE / "sentence_words.py").write_text(
        formatted(words_module(), "sentence_words.py"), "utf-8"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
