"""The sentence rules as data tables, one per rule family and per script.

Written from the public rule sets: the Pragmatic Segmenter's "Golden Rules" (as pySBD's
tests state them), pySBD's and sentencex's language test files, and each script's own
punctuation. The expected sentences are what a reader of the text would cut, not what the
code happens to return; where the references disagree with each other the docstring of
the family says which reading is kept.
"""

# ruff: noqa: RUF001, E501  (tables of cases: fullwidth and curly punctuation, one case a line)

from __future__ import annotations

import pytest

from chunker_py import sentence_spans
from chunker_py.text.sentence_language import LANGUAGES, detect_language


def split(text: str, abbreviations: tuple[str, ...] = (), language: str = "auto") -> list[str]:
    spans = sentence_spans(text, abbreviations=abbreviations, language=language)
    return [text[a:b] for a, b in spans]


def table(cases: list[tuple[str, list[str]]]) -> pytest.MarkDecorator:
    return pytest.mark.parametrize(("text", "expected"), cases, ids=[c[0][:40] for c in cases])


TERMINATORS = [
    ("Hello World. My name is Jonas.", ["Hello World.", "My name is Jonas."]),
    ("What is your name? My name is Jonas.", ["What is your name?", "My name is Jonas."]),
    ("There it is! I found it.", ["There it is!", "I found it."]),
    ("This is UK. Not US", ["This is UK.", "Not US"]),
    ("lower. next words stay together", ["lower. next words stay together"]),
    ("It costs 5. 10 people came.", ["It costs 5.", "10 people came."]),
    ("Ends here.", ["Ends here."]),
    ("No stop at the end", ["No stop at the end"]),
    ("End.\u00a0Next after a no-break space", ["End.", "Next after a no-break space"]),
]


@table(TERMINATORS)
def test_terminators(text: str, expected: list[str]) -> None:
    assert split(text) == expected


RUNS = [
    ("Hello!! Long time no see.", ["Hello!!", "Long time no see."]),
    ("Hello?? Who is there?", ["Hello??", "Who is there?"]),
    ("Hello!? Is that you?", ["Hello!?", "Is that you?"]),
    ("Hello?! Is that you?", ["Hello?!", "Is that you?"]),
    ("Really‽ Yes. Wow‼ Fine.", ["Really‽ Yes.", "Wow‼", "Fine."]),
    (
        "She works at Yahoo! in the accounting department.",
        ["She works at Yahoo! in the accounting department."],
    ),
    ("What a surprise?!", ["What a surprise?!"]),
]


@table(RUNS)
def test_question_and_exclamation_runs(text: str, expected: list[str]) -> None:
    """``‽`` is not a terminator of the rules (it is rare and often mid-word in names)."""
    assert split(text) == expected


ABBREVIATIONS = [
    # initials and single letters
    ("My name is Jonas E. Smith.", ["My name is Jonas E. Smith."]),
    (
        "J. R. R. Tolkien wrote it. Then he rested.",
        ["J. R. R. Tolkien wrote it.", "Then he rested."],
    ),
    ("Please turn to p. 55.", ["Please turn to p. 55."]),
    (
        "We make a good team, you and I. Did you see Albert I. Jones yesterday?",
        ["We make a good team, you and I.", "Did you see Albert I. Jones yesterday?"],
    ),
    # two letters and more, mid-sentence and at the end
    ("Were Jane and co. at the party?", ["Were Jane and co. at the party?"]),
    (
        "They closed the deal with Pitt, Briggs & Co. at noon.",
        ["They closed the deal with Pitt, Briggs & Co. at noon."],
    ),
    ("Let's ask Jane and co. They should know.", ["Let's ask Jane and co.", "They should know."]),
    (
        "They closed the deal with Pitt, Briggs & Co. It closed yesterday.",
        ["They closed the deal with Pitt, Briggs & Co.", "It closed yesterday."],
    ),
    ("I can see Mt. Fuji from here.", ["I can see Mt. Fuji from here."]),
    ("That is JFK Jr.'s book.", ["That is JFK Jr.'s book."]),
    ("Dr. Smith met Mr. Jones. They talked.", ["Dr. Smith met Mr. Jones.", "They talked."]),
    ("DR. Who arrived. Fine.", ["DR. Who arrived.", "Fine."]),
    ("See e.g. Fig. 3 and i.e. This one. Next.", ["See e.g. Fig. 3 and i.e. This one.", "Next."]),
    ("Apples, pears etc. The rest is fruit too.", ["Apples, pears etc.", "The rest is fruit too."]),
    # several periods
    ("I visited the U.S.A. last year.", ["I visited the U.S.A. last year."]),
    ("I live in the E.U. How about you?", ["I live in the E.U.", "How about you?"]),
    ("I live in the U.S. How about you?", ["I live in the U.S.", "How about you?"]),
    (
        "I work for the U.S. Government in Virginia.",
        ["I work for the U.S. Government in Virginia."],
    ),
    ("I have lived in the U.S. for 20 years.", ["I have lived in the U.S. for 20 years."]),
    ("She earned her Ph.D. Tom was impressed.", ["She earned her Ph.D.", "Tom was impressed."]),
    (
        "Rome was founded in 753 B.C. Augustus came later.",
        ["Rome was founded in 753 B.C.", "Augustus came later."],
    ),
    ("Wake up at 7 a.m. and go.", ["Wake up at 7 a.m. and go."]),
]


@table(ABBREVIATIONS)
def test_abbreviations_and_initials(text: str, expected: list[str]) -> None:
    assert split(text) == expected


CONTEXT = [
    # "No." counts before a number, ends a sentence before a word (docs/decisions.md's example)
    ("No. Wait… What happened here? Fine.", ["No.", "Wait…", "What happened here?", "Fine."]),
    ("It is No. 5 on the list.", ["It is No. 5 on the list."]),
    ("The answer was no. Then we left.", ["The answer was no.", "Then we left."]),
    ("See Art. 5 and Fig. 2 for details.", ["See Art. 5 and Fig. 2 for details."]),
    (
        "She arrived on Feb. 5, 1995, after a long flight.",
        ["She arrived on Feb. 5, 1995, after a long flight."],
    ),
    # "St." before a name is Saint; after a capitalised word it is a street
    (
        "St. Michael's Church is on 5th st. near the light.",
        ["St. Michael's Church is on 5th st. near the light."],
    ),
    ("He lives in St. Louis now.", ["He lives in St. Louis now."]),
    ("We live on Main St. The house is blue.", ["We live on Main St.", "The house is blue."]),
    # units after a number
    ("The shelf is 3 ft. Tom measured it twice.", ["The shelf is 3 ft.", "Tom measured it twice."]),
    ("The bag held 2 lb. 4 oz. of nuts.", ["The bag held 2 lb. 4 oz. of nuts."]),
]


@table(CONTEXT)
def test_abbreviations_that_depend_on_what_follows(text: str, expected: list[str]) -> None:
    assert split(text) == expected


NUMBERS = [
    ("Pi is 3.14 today. Good.", ["Pi is 3.14 today.", "Good."]),
    ("She has $100.00 in her bag.", ["She has $100.00 in her bag."]),
    ("She has $100.00. It is in her bag.", ["She has $100.00.", "It is in her bag."]),
    (
        "Die Stadt hat 1.000.000 Einwohner. Sie wächst.",
        ["Die Stadt hat 1.000.000 Einwohner.", "Sie wächst."],
    ),
    ("Es kostet 5.300,25 Euro. Das ist viel.", ["Es kostet 5.300,25 Euro.", "Das ist viel."]),
    (
        "You can find it at N°. 1026.253.553. That is where the treasure is.",
        ["You can find it at N°. 1026.253.553.", "That is where the treasure is."],
    ),
    # German ordinals: a day before a month, an ordinal before a noun (FluentChunker's limit)
    ("Wir treffen uns am 3. Oktober in Berlin.", ["Wir treffen uns am 3. Oktober in Berlin."]),
    (
        "Am 24. Dezember ist Heiligabend. Dann kommt Weihnachten.",
        ["Am 24. Dezember ist Heiligabend.", "Dann kommt Weihnachten."],
    ),
    (
        "Das war der 2. Weltkrieg und er war furchtbar.",
        ["Das war der 2. Weltkrieg und er war furchtbar."],
    ),
    (
        "Er wurde im Rennen 3. Dann ging er nach Hause.",
        ["Er wurde im Rennen 3.", "Dann ging er nach Hause."],
    ),
    ("Vi ses den 1. januar i Oslo.", ["Vi ses den 1. januar i Oslo."]),
]


@table(NUMBERS)
def test_numbers_and_ordinals(text: str, expected: list[str]) -> None:
    assert split(text) == expected


LISTS = [
    ("1.) The first item 2.) The second item", ["1.) The first item", "2.) The second item"]),
    ("1.) The first item. 2.) The second item.", ["1.) The first item.", "2.) The second item."]),
    ("1) The first item 2) The second item", ["1) The first item", "2) The second item"]),
    ("1. The first item 2. The second item", ["1. The first item", "2. The second item"]),
    ("1. The first item. 2. The second item.", ["1. The first item.", "2. The second item."]),
    ("• 9. The first item • 10. The second item", ["• 9. The first item", "• 10. The second item"]),
    ("⁃9. The first item ⁃10. The second item", ["⁃9. The first item", "⁃10. The second item"]),
    (
        "a. The first item b. The second item c. The third list item",
        ["a. The first item", "b. The second item", "c. The third list item"],
    ),
    ("i.) The first item ii.) The second item", ["i.) The first item", "ii.) The second item"]),
    (
        "Here are the rules:\n* Be kind\n* Be honest",
        ["Here are the rules:", "* Be kind", "* Be honest"],
    ),
    ("Steps\n1. open the box\n2. take it out", ["Steps", "1. open the box", "2. take it out"]),
    ("(1) foo\n(2) bar", ["(1) foo", "(2) bar"]),
    ("Point 1) and 3) only.", ["Point 1) and 3) only."]),
]


@table(LISTS)
def test_list_markers(text: str, expected: list[str]) -> None:
    assert split(text) == expected


ADDRESSES = [
    (
        "Her email is Jane.Doe@example.com. I sent her an email.",
        ["Her email is Jane.Doe@example.com.", "I sent her an email."],
    ),
    (
        "The site is: https://www.example.50.com/new-site/awesome_content.html. Please check it out.",
        [
            "The site is: https://www.example.50.com/new-site/awesome_content.html.",
            "Please check it out.",
        ],
    ),
    (
        "Open config.yaml and README.md first. Then run it.",
        ["Open config.yaml and README.md first.", "Then run it."],
    ),
    ("Visit www.Example.com for more.", ["Visit www.Example.com for more."]),
]


@table(ADDRESSES)
def test_email_addresses_urls_and_file_names(text: str, expected: list[str]) -> None:
    assert split(text) == expected


ELLIPSES = [
    (
        "I never meant that.... She left the store.",
        ["I never meant that....", "She left the store."],
    ),
    ("Wait… What now? And then… nothing.", ["Wait…", "What now?", "And then… nothing."]),
    ("Wait... What now?", ["Wait...", "What now?"]),
    (
        "I wasn’t really ... well, what I mean...see . . . what I'm saying, the thing is . . . I didn’t mean it.",
        [
            "I wasn’t really ... well, what I mean...see . . . what I'm saying, the thing is . . . I didn’t mean it."
        ],
    ),
    (
        '"Bohr [...] used the analogy of parallel stairways [...]" (Smith 55).',
        ['"Bohr [...] used the analogy of parallel stairways [...]" (Smith 55).'],
    ),
    ("Happy! . . .  No one had said it.", ["Happy! . . .", "No one had said it."]),
]


@table(ELLIPSES)
def test_ellipses(text: str, expected: list[str]) -> None:
    """An ellipsis before a capital ends a sentence (pySBD, sentencex), except spaced dots
    or ``...`` before the pronoun "I" (both references keep those)."""
    assert split(text) == expected


QUOTES = [
    (
        'She turned to him, "This is great." she said.',
        ['She turned to him, "This is great." she said.'],
    ),
    (
        'She turned to him, "This is great." She held the book.',
        ['She turned to him, "This is great."', "She held the book."],
    ),
    (
        "She turned to him, 'This is great.' she said.",
        ["She turned to him, 'This is great.' she said."],
    ),
    (
        '"Stop." She left. He said "Go!" Then ran.',
        ['"Stop."', "She left.", 'He said "Go!"', "Then ran."],
    ),
    ("(See above.) Next one.", ["(See above.)", "Next one."]),
    (
        "He teaches science (He previously worked for 5 years as an engineer.) at the local University.",
        [
            "He teaches science (He previously worked for 5 years as an engineer.) at the local University."
        ],
    ),
    ('"How many? I don\'t know." Then silence.', ['"How many? I don\'t know."', "Then silence."]),
    (
        "Check the reference [page. 42] for details. Fine.",
        ["Check the reference [page. 42] for details.", "Fine."],
    ),
    (
        "Il a dit «Oui.» Puis il est parti. «Non», dit-elle.",
        ["Il a dit «Oui.»", "Puis il est parti.", "«Non», dit-elle."],
    ),
    ("Er sagte „Hallo.“ Dann ging er.", ["Er sagte „Hallo.“", "Dann ging er."]),
    ("Sie rief »Halt!« Alle blieben stehen.", ["Sie rief »Halt!«", "Alle blieben stehen."]),
    ("Hydrogen is a gas.[1] It burns.", ["Hydrogen is a gas.[1]", "It burns."]),
    ("Hydrogen is a gas. [1][2] [3] It burns.", ["Hydrogen is a gas. [1][2] [3]", "It burns."]),
]


@table(QUOTES)
def test_terminators_inside_quotes_and_brackets(text: str, expected: list[str]) -> None:
    assert split(text) == expected


NO_SPACE = [
    (
        "Hello world.Today is Tuesday.Mr. Smith went to the store and bought 1,000.That is a lot.",
        [
            "Hello world.",
            "Today is Tuesday.",
            "Mr. Smith went to the store and bought 1,000.",
            "That is a lot.",
        ],
    ),
    ("Is it?Yes it is!Good.", ["Is it?", "Yes it is!", "Good."]),
]


@table(NO_SPACE)
def test_no_space_between_sentences(text: str, expected: list[str]) -> None:
    assert split(text) == expected


SCRIPTS = [
    # Spanish openers
    ("Hola. ¿Qué tal? ¡Bien! Adiós.", ["Hola.", "¿Qué tal?", "¡Bien!", "Adiós."]),
    ("La Sra. García llegó. Bien.", ["La Sra. García llegó.", "Bien."]),
    # Chinese and Japanese: unconditional full stops, brackets kept with their sentence
    ("我爱你。你好！真的吗？好的．", ["我爱你。", "你好！", "真的吗？", "好的．"]),
    (
        "我们明天一起去看《摔跤吧！爸爸》好吗？好！",
        ["我们明天一起去看《摔跤吧！爸爸》好吗？", "好！"],
    ),
    ("他说：“你好。”然后走了。", ["他说：“你好。”", "然后走了。"]),
    ("真的吗?好的!", ["真的吗?", "好的!"]),
    ("「東京」に行きました。「はい」", ["「東京」に行きました。", "「はい」"]),
    ("「はい。」次の文です。", ["「はい。」", "次の文です。"]),
    ("彼は「そうですね。」と言った。", ["彼は「そうですね。」と言った。"]),
    ("『終わり。』（注意！）【重要。】次。", ["『終わり。』", "（注意！）", "【重要。】", "次。"]),
    ("引き下げ幅は３．２９％以上です。次です。", ["引き下げ幅は３．２９％以上です。", "次です。"]),
    # Arabic, Persian, Urdu
    ("هذا سؤال؟ نعم. هذا جيد۔ تمام", ["هذا سؤال؟", "نعم.", "هذا جيد۔", "تمام"]),
    ("این یک جمله است. این جمله دوم است؟ بله", ["این یک جمله است.", "این جمله دوم است؟", "بله"]),
    ("یہ ایک جملہ ہے۔ یہ دوسرا ہے۔", ["یہ ایک جملہ ہے۔", "یہ دوسرا ہے۔"]),
    # Hindi, Marathi (danda), Bengali
    ("यह एक वाक्य है। यह दूसरा है॥ तीसरा", ["यह एक वाक्य है।", "यह दूसरा है॥", "तीसरा"]),
    ("हा एक वाक्य आहे।हे दुसरे आहे।", ["हा एक वाक्य आहे।", "हे दुसरे आहे।"]),
    # Armenian full stop (and the colon typed for it)
    (
        "Սա առաջին նախադասությունն է։ Սա երկրորդն է։",
        ["Սա առաջին նախադասությունն է։", "Սա երկրորդն է։"],
    ),
    ("Կարող ե՞նք միասին աշխատել: Գուցե այո:", ["Կարող ե՞նք միասին աշխատել:", "Գուցե այո:"]),
    # Amharic, Burmese, Khmer
    ("ይህ የመጀመሪያ ነው። ይህ ሁለተኛ ነው፧ አዎ።", ["ይህ የመጀመሪያ ነው።", "ይህ ሁለተኛ ነው፧", "አዎ።"]),
    ("ဒါက ပထမ စာကြောင်း ဖြစ်တယ်။ ဒါက ဒုတိယ ဖြစ်တယ်။", ["ဒါက ပထမ စာကြောင်း ဖြစ်တယ်။", "ဒါက ဒုတိယ ဖြစ်တယ်။"]),
    ("នេះជាប្រយោគទីមួយ។ នេះជាប្រយោគទីពីរ។", ["នេះជាប្រយោគទីមួយ។", "នេះជាប្រយោគទីពីរ។"]),
    # Greek: ";" is the question mark
    ("Τι κάνεις; Είμαι καλά. Εσύ;", ["Τι κάνεις;", "Είμαι καλά.", "Εσύ;"]),
    ("Πού πας; Στο σπίτι.", ["Πού πας;", "Στο σπίτι."]),
    ("Use a; b; and c. Then stop.", ["Use a; b; and c.", "Then stop."]),
    # Thai: a space between Thai letters
    ("ประโยคแรก ประโยคที่สอง", ["ประโยคแรก", "ประโยคที่สอง"]),
    ("ฉันไปตลาด เธอไปโรงเรียน", ["ฉันไปตลาด", "เธอไปโรงเรียน"]),
    # Hebrew, Russian, Ukrainian, Korean
    ("זה משפט. זה עוד משפט! ומה?", ["זה משפט.", "זה עוד משפט!", "ומה?"]),
    (
        "Это было в 1990 г. в Москве. Потом т.е. позже.",
        ["Это было в 1990 г. в Москве.", "Потом т.е. позже."],
    ),
    ("Ми живемо в м. Київ на вул. Лесі Українки.", ["Ми живемо в м. Київ на вул. Лесі Українки."]),
    ("안녕하세요. 반갑습니다! 잘 지내요?", ["안녕하세요.", "반갑습니다!", "잘 지내요?"]),
]


@table(SCRIPTS)
def test_scripts(text: str, expected: list[str]) -> None:
    assert split(text) == expected


BREAKS = [
    (
        "First para\n\nsecond para no stop\r\n \r\nthird",
        ["First para", "second para no stop", "third"],
    ),
    (
        "line one\nstill the same sentence. New one.",
        ["line one\nstill the same sentence.", "New one."],
    ),
    (
        "Multi line sentence\nWe should not split this",
        ["Multi line sentence\nWe should not split this"],
    ),
]


@table(BREAKS)
def test_line_and_paragraph_breaks(text: str, expected: list[str]) -> None:
    assert split(text) == expected


USER = [
    ("Siehe Abb. Drei. Gut.", ("Abb.",), ["Siehe Abb. Drei.", "Gut."]),
    ("Siehe Abb. Drei. Gut.", ("abb",), ["Siehe Abb. Drei.", "Gut."]),
    ("Siehe Abb. Drei. Gut.", (), ["Siehe Abb.", "Drei.", "Gut."]),
    ("Vgl. Kap. 3 hier. Ende.", ("Kap.",), ["Vgl. Kap. 3 hier.", "Ende."]),
    ("The Acme Corp. team won. Next.", ("Corp.",), ["The Acme Corp. team won.", "Next."]),
    ("Ask Jane and co. They know.", ("co",), ["Ask Jane and co. They know."]),
]


@pytest.mark.parametrize(("text", "abbreviations", "expected"), USER)
def test_user_abbreviations_go_on_top(
    text: str, abbreviations: tuple[str, ...], expected: list[str]
) -> None:
    """The user's abbreviations never end a sentence before a capital (only at the end of a
    paragraph), whatever the language's list says."""
    assert split(text, abbreviations) == expected


DETECTED = [
    ("Der Hund und die Katze sind nicht hier. Das ist gut.", "de"),
    ("The dog and the cat are not here. That is good.", "en"),
    ("Le chien et le chat ne sont pas dans la maison.", "fr"),
    ("El perro y los gatos están en la casa que es grande.", "es"),
    ("Это было в Москве. Потом мы поехали домой.", "ru"),
    ("Ми живемо в Києві і працюємо там.", "uk"),
    ("Τι κάνεις; Είμαι καλά.", "el"),
    ("我们明天一起去看电影。", "zh"),
    ("これはペンです。それはマーカーです。", "ja"),
    ("هذا سؤال؟ نعم.", "ar"),
    ("این یک جمله است که پیچیده است.", "fa"),
    ("یہ ایک جملہ ہے۔ یہ دوسرا ہے۔", "ur"),
    ("यह एक वाक्य है।", "hi"),
    ("ประโยคแรก ประโยคที่สอง", "th"),
    ("Սա առաջին նախադասությունն է։", "hy"),
    ("12345 ...", "en"),
    # the script with the most letters wins, Katakana alone counting as Japanese: five
    # Greek letters against four Katakana, then four against five (a mutation run's
    # survivor counted a Katakana-only text one letter high)
    ("αβγδε アイウエ", "el"),
    ("αβγδ アイウエオ", "ja"),
]


@pytest.mark.parametrize(("text", "language"), DETECTED)
def test_automatic_language(text: str, language: str) -> None:
    assert detect_language(text) == language


def test_the_language_choice_changes_the_rules() -> None:
    """Ordinals before a noun are German (and other languages'), not English."""
    text = "Das war der 2. Weltkrieg und er war furchtbar."
    assert split(text, language="de") == [text]
    assert split(text, language="en") == ["Das war der 2.", "Weltkrieg und er war furchtbar."]
    assert split(text) == [text]  # auto: German from its function words


def test_every_language_choice_runs() -> None:
    text = "Dr. Smith arrived. He met No. 5 on Main St. Then left… Fine。"
    for language in LANGUAGES:
        spans = sentence_spans(text, language=language)
        assert spans and spans[-1][1] == len(text), language
