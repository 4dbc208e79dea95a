"""Read a description the way a router does: is there a trigger, and for which contexts?

The score follows the triggering rubric of PluginEval's ``references/rubrics.md``:
a trigger with three or more specific, distinct contexts is excellent; length alone
earns nothing.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import groupby

from plugin_eval import regexes
from plugin_eval.budgets import LISTING_CHARS
from plugin_eval.reference_words import description_digest, reference_counts, reference_digests
from plugin_eval.textsearch import LazyRegex, at_word_starts, one_line

# Clear statements of when to use a skill. Matched case-insensitively on the
# description and ``when_to_use``; each match opens a trigger clause. They are compiled once,
# together as TRIGGER: compiling each on its own as well cost ~2 ms of every start.
TRIGGER_PATTERNS: tuple[str, ...] = (
    r"\buse\s+(?:this\s+skill\s+|this\s+|it\s+|me\s+)?"
    r"(?:only\s+|proactively\s+|automatically\s+|immediately\s+|primarily\s+|mainly\s+)?"
    r"(?:when(?:ever)?|for|to|if|during|before|after|while|on|in\s+case"
    r"|at(?!\s+(?:least|most|all|your|its|will|once)\b))\b:?",
    r"\bshould\s+be\s+used\s+(?:only\s+)?(?:when(?:ever)?|for|to|if|during|while)\b:?",
    r"\b(?:invoke|activate|trigger|load|apply|consult|engage|call)\s+"
    r"(?:this\s+skill\s+|this\s+|it\s+|me\s+)?(?:only\s+|proactively\s+|automatically\s+)?"
    r"(?:when(?:ever)?|for|if|on|during|while|before|after)\b:?",
    # An agent's description names the delegation: "Delegate to this agent whenever …",
    # "Delegates here when …" (the object is required: "delegates for callbacks" is C#).
    r"\bdelegate[sd]?\s+(?:to\s+)?(?:this\s+(?:agent|subagent|skill)|here|it|me)\s+"
    r"(?:only\s+|proactively\s+|automatically\s+)?"
    r"(?:when(?:ever)?|for|if|on|during|while|before|after)\b:?",
    r"\btrigger(?:s|ed)?\s+(?:on|when|for|by|if)\b:?",
    # The verb in the third person or passive: "Activates when …", "Invoked for …".
    r"\b(?:invoke[sd]|activate[sd]|triggers|loads|applies|engaged)\s+(?:only\s+|automatically\s+)?"
    r"(?:when(?:ever)?|for|if|on|during|while)\b:?",
    # A label: "TRIGGER: …", "Triggers: …", "Activation: …".
    r"\b(?:triggers?|activation)\s*:",
    # The agent as the subject: "When Claude needs to …", "when the agent is asked to …".
    r"\bwhen(?:ever)?\s+(?:claude|the\s+(?:agent|assistant|model))\s+"
    r"(?:needs?|wants?|is\s+asked|has)\s+to\b",
    r"\bwhen\s+to\s+use\b:?",
    r"\buse\s+cases?\s*:",
    r"\b(?:useful|helpful)\s+(?:when(?:ever)?|for|if)\b",
    # The situation first: "When exporting tables or merging files, use this skill."
    r"\b(?:when(?:ever)?|if)\s+(?P<pre>[^.;!?。]{3,200}?),\s*(?:use|invoke|activate|load|apply|"
    r"consult)\s+(?:this\s+skill|this|it|me)\b",
    r"\bpreferred\s+(?:for|when(?:ever)?)\b",
    # What it is best at, said as its use: "Best for production protocols", "Ideal for batch
    # screening", "Best suited for …". Read as one more trigger clause: on the tuning half of the
    # validation set, descriptions that said so were ranked under their readers' ratings.
    r"\b(?:best(?:\s+suited)?|ideal|well[\s-]suited|recommended)\s+for\b",
    # "Use for" left implicit: a sentence that is only "For A, B, and C." (no "use", "see" …
    # naming another tool for them, which is ALTERNATIVE's "for X, use Y").
    r"(?:^|(?<=[.!?]\s))for\s+(?![^.;!?]*\b(?:use|see|prefer|try|instead|may\s+be)\b)",
    # Chinese, Japanese, Spanish, French, German.
    r"(?:适用于|用于|使用场景[::]?|触发条件[::]?)",
    r"当(?P<inner>[^。.;;]{1,60}?)时(?:使用|调用|触发|启用)",
    r"在(?P<inner2>[^。.;;]{1,60}?)时使用",
    r"(?:場合に使用|ときに使用|時に使用)",
    # The verb, an optional object ("esta skill", "cette compétence", "Sie diesen Skill"),
    # an optional comma, then the conjunction.
    r"\b(?:úsal[oa]|usa(?:r)?|utilízal[oa]|utiliza(?:r)?)(?:\s+est[ea]\s+(?:skill|habilidad))?"
    r"\s*,?\s+(?:cuando|para|si)\b",
    r"\butilise[rz]?(?:\s+(?:ce|cette)\s+(?:skill|compétence))?\s*,?\s+(?:quand|lorsque?|pour|si)\b",
    r"\b(?:verwende[nt]?|nutze[n]?|einsetzen)(?:\s+(?:sie|du))?"
    r"(?:\s+(?:diesen|dieses|den)\s+skill|\s+ihn|\s+es)?\s*,?\s+(?:wenn|für|bei|sobald)\b",
)


def _joined(patterns: tuple[str, ...]) -> str:
    """The alternation of ``patterns``, in their order, with one ``\\b`` in front of each run of
    patterns that begin with it: ``\\b(?:a|b)`` matches what ``\\ba|\\bb`` matches, but ``re``
    tests the word boundary once per position for the run, not once per pattern (this halves
    the search of a description that has no trigger)."""
    parts: list[str] = []
    for bounded, run in groupby(patterns, key=lambda p: p.startswith(r"\b")):
        if bounded:
            parts.append(r"\b(?:" + "|".join(f"(?:{p[2:]})" for p in run) + ")")
        else:
            parts += [f"(?:{p})" for p in run]
    return "|".join(parts)


class Caseless:
    """A pattern matched whatever the case of the text, fast in ASCII text.

    With IGNORECASE, re folds the case of every character it tries and cannot rule out an
    alternative by its first letter at once; a description takes about twice as long to
    search. So ASCII text is searched by the pattern compiled without it, in the lowercased
    text: the same spans, since lower() keeps ASCII text's length and the pattern has no
    capital letter outside an escape and no character that folds to ASCII (a test checks).
    Other text is searched by the pattern with IGNORECASE, compiled when first needed. A
    match's spans are those in ``text``, but its strings may be lowercased: read the text
    by its spans.

    ``word_start``: the pattern is ``\\b`` + ``source``, whose matches begin with a word
    character; ASCII text is searched for ``source`` alone, which re can skip through by the
    first letters of its alternatives, and each match is kept only at a word start
    (textsearch.at_word_starts).
    """

    __slots__ = ("cased", "caseless", "word_start")

    def __init__(self, source: str, flags: int = 0, *, word_start: bool = False) -> None:
        self.cased = regexes.compile(source, flags)
        self.caseless = LazyRegex(r"\b" + source if word_start else source, flags | re.I)
        self.word_start = word_start

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        if not text.isascii():
            return self.caseless.rx.search(text, pos)
        if self.word_start:
            return next(at_word_starts(self.cased, text.lower(), pos), None)
        return self.cased.search(text.lower(), pos)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        if not text.isascii():
            return self.caseless.rx.finditer(text)
        if self.word_start:
            return at_word_starts(self.cased, text.lower())
        return self.cased.finditer(text.lower())


TRIGGER = Caseless(_joined(TRIGGER_PATTERNS))
_PROACTIVE = Caseless(r"(?:proactively|automatically)\b", word_start=True)
PROACTIVE = regexes.compile(r"\b" + _PROACTIVE.cased.pattern, re.IGNORECASE)
# Saying when not to use it; a description says so when either pattern matches. (The
# English words begin at a word start, the Chinese ones anywhere: apart, the first are
# searched at word starts.)
NEGATIVE = (
    Caseless(
        r"(?:not\s+for|do\s+not\s+use|don't\s+use|never\s+use|not\s+when|instead\s+use|"
        r"use\s+\S+\s+instead|rather\s+than|not\s+intended\s+for|skip\s+(?:it|this)\s+"
        r"(?:when|for))\b",
        word_start=True,
    ),
    Caseless(r"不适用|不要用于"),
)
SITUATION = Caseless(r"(?:when(?:ever)?|if\s+you|while)\b", word_start=True)
# Naming where another tool takes over: "For quick lookups use gget", "…; otherwise use X".
# The "for …"/"to …" opens a sentence or clause (after an end, a comma, a dash, a quote or a
# parenthesis), and what is used is another thing: "how to find and use skills", "a monolith
# to use bounded contexts", "to be opened, …, use this skill", "for various use cases" and
# "… memory Use when:" name none.
ALTERNATIVE = Caseless(
    r"(?:^|(?<=[.;:!?,\"'”’(—–])|(?<=\s-))\s*(?:for|to)\s+[^.;:!?]{3,80}?,?\s+(?:use|prefer|see)\s+"
    r"(?!(?:this|it|me|them|when|whenever|cases?)\b)(?:the\s+)?`?[\w.-]+|"
    r"\botherwise\s+use\b|\bnot\s+(?:a|an)\s+replacement\s+for\b"
)
# A quantifier over a whole class of requests ("any question", "all AI tasks", "every
# conversation"): a condition that holds for nearly every prompt separates nothing.
# A claim to be picked before, or instead of, every other skill whatever the request: it
# takes routing from every neighbour instead of separating the skill's requests from theirs.
PRECEDENCE = Caseless(
    r"""\b(?:
       (?:highest|top)[\s-]+priority
     | default[\s-]+(?:tool|skill|choice|option)
     | (?:primary|main|go-to|first)[\s-]+(?:tool|skill|choice)\s+for\s+(?:all|any|every)\b
     | always\s+(?:use|invoke|call|load|run|pick|choose|select)\s+(?:it|this|me)(?:\s+skill)?
       \s+(?:first|before)
     | (?:use|invoke|call|load)\s+(?:it|this(?:\s+skill)?)\s+
       (?:first|before\s+(?:any|all|every|other))
     | (?:before|instead\s+of)\s+(?:any|all|every)\s+other\s+(?:tools?|skills?)
    )""",
    re.VERBOSE,
)
# The top of the rubric's "weak" band (precision failure: fires on clearly wrong prompts).
PRECEDENCE_CEILING = 0.39
_QUANTIFIER = Caseless(r"(?:any|all|every|anything|everything|whatever)\b", word_start=True)
# Technical terms: words a router can match on that ordinary prose does not contain. A word
# counts when its form marks it (an inner capital, a digit, an inner '/', '.', '+' or '#', all
# capitals) or when it is capitalised away from the start of a sentence (a product name). A
# word with none of the characters any of those needs (a capital, a digit, '/', '.', '+',
# '#', or any letter outside ASCII) is passed over by the lookahead, in the regex engine.
# (A non-ASCII letter is "[^\x00-\x7f]": the same set as the range \x80-\U0010ffff, which
# costs ~2 ms of every start to compile.) The lookahead reads the run of the word's
# characters ([\w+#./-]) for one of those; the only ones it may pass are [a-z_-], so it
# reads those possessively and tests the character after them once, not again after
# giving back each (the same as "(?=[\w+#./-]*(?:…))", in about half the time).
_TERM = regexes.compile(
    r"(?<![\w`])(?=[a-z_-]*+(?:[A-Z0-9/.+#]|[^\x00-\x7f]))"
    r"(?:[A-Za-z0-9][\w+#.-]*(?:/[\w+#.-]+)*)(?![\w`])|`[^`\n]{1,60}`"
)

# A sentence ends at '.', '!' or '?' before white space, or before closing quotes and then
# white space and no lowercase letter ('… "dump tables." It provides …', not '"stop." or
# "halt."'), not in "e.g.", "i.e.", "etc." or after an initial; at a blank line; or at a
# full-width '。', '!' or '?'. The pattern begins with the one class of every character an
# end can begin with, so that re skips to them; the alternatives then read back over that
# character ('.' in a look-behind is that character).
# The same as r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\b[A-Z])[.!?。!?](?:(?=\s|$)|QUOTES)
# |\n\s*\n|[。!?]", which tries its four look-behinds at every position of the text.
_SENTENCE_END = regexes.compile(
    r"[.!?。!?\n](?:(?<=[.!?。!?])(?<!\be\.g.)(?<!\bi\.e.)(?<!\betc.)(?<!\b[A-Z].)"
    r"(?:(?=\s|$)|[\"'”’»]{1,3}(?=\s*$|\s+(?![a-z])))"
    r"|(?<=\n)\s*\n|(?<=[。!?]))"
)
_SPACED_DASH = regexes.compile(r"\s[-–—]\s+")
# After a comma, "before …" / "until …" (when in the situation to act) and "especially if …",
# "even when …" (which case of it matters most, or that it holds anyway) add no situation,
# unless a comma follows it before the next such word: then it is an item of a list of
# situations ("when a query is hard to read, before committing migrations, or when …").
_QUALIFIER = regexes.compile(
    r",\s+(?:before|until|(?:especially|particularly|even)\s+(?:if|when|though))\s",
    re.IGNORECASE,
)
# A lowercase word ending in one 's', as a verb of the third person does ("creates",
# "requires", "guides"): what the skill does, after the situations. A plural noun there
# ("- tests fail") reads the same; a list of situations has several dashes, and is not cut.
_DOES = regexes.compile(r"[a-z]{2,}(?<!ss)s\b")
_PAREN = regexes.compile(r"\([^()]*\)|（[^（）]*）")
# Where a clause splits into contexts: at ';', ',' or '、' with the white space around it, at
# "or" (or "and", "plus" … before "when", "for" … or a gerund) between white space, and at
# 和/或/及/以及 after a CJK character. The same as
#   \s*[;;,,、]\s*|(?i:\s+(?:or|and|and/or|as\s+well\s+as|plus)\s+(?=…)|\s+or\s+)
#   |(?<=[\u4e00-\u9fff])(?:和|或|及|以及)
# but it begins with the one class of every character a split can begin with, so that re
# skips to them; each alternative then reads back over that character (a white space
# character begins "\s*" or "\s+", a ';' has no white space before it, and so on). The CJK
# range is written once: each copy costs ~0.7 ms of every start to compile.
# Case is ignored in the English part only: CJK has no case, and folding the case of the
# CJK range would cost ~1.5 ms of every start to compile.
_SPLIT = regexes.compile(
    r"[\s;;,,、和或及以](?:(?<=\s)\s*[;;,,、]\s*|(?<=[;;,,、])\s*"
    r"|(?i:(?<=\s)\s*(?:or|and|and/or|as\s+well\s+as|plus)\s+(?=(?:when(?:ever)?|for|if|"
    r"while|during|to|before|after|you)\b|\w+ing\b)|(?<=\s)\s*or\s+)"
    r"|(?<=[\u4e00-\u9fff][和或及以])(?:(?<!以)|及))"
)
_LEAD = regexes.compile(
    r"^(?:(?:or|and|also|when(?:ever)?|for|to|if|while|during|before|after|on|in|"
    r"the\s+user|a\s+user|users?|you|someone|they|asked\s+to|asks?\s+(?:to|for|about)|"
    r"wants?\s+to|needs?\s+to|need\s+to|is|are|mentions?|requests?|says?|e\.g\.|such\s+as|"
    r"like|including|either|any|the|a|an|with|about|is\s+asked\s+to)\b[\s:,]*)+",
    re.IGNORECASE,
)
_WORD = regexes.compile(
    r"[A-Za-z][A-Za-z0-9+#'.-]*[A-Za-z0-9+#]|[A-Za-z]|[\u3040-\u30ff\u4e00-\u9fff]+"
)

STOPWORDS = frozenset(
    """
    a an the and or of to in on for with by from at as is are be been being it its this that
    these those their there then than into onto over under about via per your you user users
    how what which who whom whose why when whenever where while if so such e.g i.e etc any
    all some each every more most other another can could should would will may might must
    do does did done has have had not no nor only also just very using use used uses within
    without between across after before during through upon them they he she we our us my me
    i new
    """.split()
)
# Verbs that say nothing about the task ("working with", "dealing with") and nouns that
# name no specific object ("results", "code"): a context made only of these is generic.
GENERIC_VERBS = frozenset(
    """
    work working works deal dealing handle handling help helping helps need needing needs
    want wanting ask asking asks understand understanding understands do doing get getting
    make making go going perform performing manage managing look looking
    """.split()
)
GENERIC_NOUNS = frozenset(
    """
    evaluation evaluations result results thing things stuff task tasks work code data file
    files issue issues problem problems question questions help content information info
    project projects topic topics general various related matter matters request requests
    anything something everything needed necessary relevant appropriate way ways case cases
    skill skills tool tools item items situation situations purpose purposes it stuff
    """.split()
)


@dataclass(frozen=True, repr=False)
class Context:
    text: str
    words: frozenset[str]
    specific: bool


@dataclass(frozen=True, repr=False)
class Contribution:
    label: str
    points: float


@dataclass(frozen=True, repr=False)
class TriggerAnalysis:
    has_trigger: bool
    trigger_phrase: str | None
    contexts: tuple[Context, ...]
    negative: bool
    proactive: bool
    exempt: str | None
    score: float
    band: str
    contributions: tuple[Contribution, ...]
    # The words claiming precedence over every other skill, when the description has them.
    precedence: str | None = None

    @property
    def specific_contexts(self) -> tuple[Context, ...]:
        return tuple(c for c in self.contexts if c.specific)


def words_of(text: str) -> list[str]:
    """Lowercased words; a run of CJK characters counts one word per two characters."""
    if text.isascii():
        # Each class of _WORD holds both cases of every letter it holds: in ASCII text it
        # finds the same words in the lowercased text, lowercased, and none of CJK.
        return _WORD.findall(text.lower())
    out: list[str] = []
    for w in _WORD.findall(text):
        if "\u3040" <= w[0] <= "\u9fff":
            out += [w[i : i + 2] for i in range(0, len(w), 2)]
        else:
            # _WORD's other words are ASCII and begin and end with a letter, digit, + or #:
            # there is nothing to strip, only the case to lower.
            out.append(w.lower())
    return out


def display_width(text: str) -> int:
    """Length with wide (CJK) characters counted twice, so short Chinese text is not 'empty'."""
    if text.isascii():  # known at once (str keeps it): no character to count twice
        return len(text)
    return len(text) + sum(1 for ch in text if "\u3040" <= ch <= "\u9fff")


def _stem(word: str) -> str:
    """``word`` without a plural ending ("ies" becomes "y"), when it is longer than four
    characters and does not end in "ss"."""
    if len(word) > 4 and word[-1] == "s" and word[-2] != "s":
        if word.endswith("ies"):
            return word[:-3] + "y"
        return word[:-2] if word[-2] == "e" else word[:-1]
    return word


def find_trigger(text: str, pos: int = 0) -> re.Match[str] | None:
    """The first clear statement of when to use the skill, at or after ``pos``."""
    return TRIGGER.caseless.rx.search(text, pos)


def _clauses(text: str, first: re.Match[str] | None) -> list[str]:
    """The text of every trigger clause: from each trigger phrase to the end of its sentence.

    ``first`` is ``TRIGGER.search(text)``, which the caller needs as well.
    """
    clauses: list[str] = []
    pos = 0
    match = first
    while pos < len(text):
        if pos:
            match = TRIGGER.search(text, pos)
        if match is None:
            break
        start = match.end()
        inner = _inner(match, text)
        if inner:  # "当…时使用", "When …, use this skill": the situation sits inside the phrase
            clauses.append(inner)
        end_match = _SENTENCE_END.search(text, start)
        end = end_match.start() if end_match else len(text)
        if end == start and end_match:
            end = end_match.end()
        # "Use when X - creates Y": one spaced dash before a verb of the third person ends
        # the situations, and what the skill does follows. Several dashes are a list of them
        # ("Use when: - tests fail - builds break").
        dashes = list(_SPACED_DASH.finditer(text, start, end))
        if len(dashes) == 1 and _DOES.match(text, dashes[0].end()):
            end = dashes[0].start()
        # "Use when X, before Y" / "…, especially if Z": when in the situation, or which case
        # of it matters most; the situations end there.
        qualifiers = list(_QUALIFIER.finditer(text, start, end))
        for i, qualifier in enumerate(qualifiers):
            upto = qualifiers[i + 1].start() if i + 1 < len(qualifiers) else end
            if "," not in text[qualifier.end() : upto]:
                end = qualifier.start()
                break
        clauses.append(text[start:end])
        pos = max(end, start + 1)
    return clauses


def _inner(match: re.Match[str], text: str) -> str | None:
    """The situation a trigger ``match`` in ``text`` holds inside it, if any (read by its span:
    the match may be one in the lowercased text)."""
    for group in ("inner", "inner2", "pre"):
        if match.start(group) >= 0:  # each takes a character or more, in its own alternative
            return text[match.start(group) : match.end(group)]
    return None


def _is_verb(word: str) -> bool:
    return (word.endswith("ing") and len(word) > 4) or word in GENERIC_VERBS


# What a context's text is trimmed of before its lead words (_LEAD) are.
_EDGES = " \t\n:-–—\"'`*"


def _context(
    fragment: str, borrowed: list[str], led: tuple[str, list[str]] | None = None
) -> Context | None:
    """The context ``fragment`` names, or None. ``led``, when the caller has it: the fragment
    trimmed of its edges and lead words, and its words that are not stop words."""
    if led is None:
        fragment = _LEAD.sub("", fragment.strip(_EDGES)).strip()
        words = [w for w in words_of(fragment) if w not in STOPWORDS]
    else:
        # Trimming white space off the ends takes no word from words_of.
        fragment, words = led[0].strip(), led[1]
    if not fragment or not words:
        return None
    verb: list[str] = []
    if _is_verb(words[0]):
        verb, words = words[:1], words[1:]
    objects = [w for w in words if w not in GENERIC_VERBS]
    if not objects and borrowed:
        objects = borrowed
    # A context is a situation, not a lone word: an action on an object, two or more words
    # that name something, or a named technology ("traceable" or "audio" alone is neither).
    # (Fewer than two objects: a word that names something is the one object, if any.)
    specific = len(objects) >= 2 or (
        bool(objects)
        and objects[0] not in GENERIC_NOUNS
        and (bool(verb) or bool(technical_terms(fragment)))
    )
    return Context(fragment, frozenset(map(_stem, verb + objects)), specific)


def extract_contexts(clause: str) -> list[Context]:
    """Split one trigger clause into contexts, however they are joined."""
    if "(" in clause or "（" in clause:  # what every _PAREN match begins with
        inner = " ".join(m.group(0)[1:-1] for m in _PAREN.finditer(clause))
        bare = _PAREN.sub(" ", clause)
    else:
        inner, bare = "", clause
    fragments = [f for f in _SPLIT.split(bare) if f and f.strip()]
    # A lone gerund ("designing, building, or reviewing APIs") shares the next object.
    contexts: list[Context] = []
    pending: list[tuple[str, tuple[str, list[str]] | None]] = []
    for fragment in fragments:
        trimmed = fragment.strip()
        lead = _LEAD.sub("", trimmed)
        core = [w for w in words_of(lead) if w not in STOPWORDS]
        # _context reads the same words when trimming its edges leaves what strip() leaves.
        led = (lead, core) if fragment.strip(_EDGES) == trimmed else None
        if len(core) == 1 and _is_verb(core[0]) and core[0] not in GENERIC_VERBS:
            pending.append((fragment, led))
            continue
        ctx = _context(fragment, [], led)
        if ctx is None:
            continue
        if pending:
            objects = sorted(ctx.words - {_stem(w) for w in core[:1] if _is_verb(w)})
            for verb_only, verb_led in pending:
                borrowed = _context(verb_only, objects, verb_led)
                if borrowed is not None:
                    contexts.append(borrowed)
            pending = []
        contexts.append(ctx)
    for verb_only, verb_led in pending:
        ctx = _context(verb_only, [], verb_led)
        if ctx is not None:
            contexts.append(ctx)
    if inner.strip() and contexts:
        last = contexts[-1]
        extra = frozenset(_stem(w) for w in words_of(inner) if w not in STOPWORDS)
        contexts[-1] = Context(last.text, last.words | extra, last.specific or bool(extra))
    return contexts


def distinct(contexts: list[Context]) -> list[Context]:
    """Drop contexts that repeat an earlier one (same words, or nearly)."""
    kept: list[Context] = []
    for ctx in contexts:
        words = ctx.words
        for seen in kept:
            if words.isdisjoint(seen.words):
                continue  # no word in common (nor any word at all): not a repeat
            common = len(words & seen.words)
            if common / (len(words) + len(seen.words) - common) >= 0.75:  # of their union
                break
        else:
            kept.append(ctx)
    return kept


def technical_terms(text: str) -> set[str]:
    """Distinct technical terms of ``text`` (see _TERM), lowercased."""
    found: set[str] = set()
    for match in _TERM.finditer(text):
        word = match[0]
        core = word.strip("`.-")
        if len(core) < 2:
            continue
        lower = core.lower()
        if lower in STOPWORDS or lower in found:
            continue
        # The cheap marks first; the look back for a sentence start only when all else fails.
        if core.isalpha():  # no digit and no '/', '.', '+' or '#'
            # (A lowercase tail holds no capital, and then the word is not all capitals.)
            marked = word[0] == "`" or (
                not core[1:].islower() and (core.isupper() or any(map(str.isupper, core[1:])))
            )
        else:
            marked = (
                word[0] == "`"
                or (any(map(str.isdigit, core)) and any(map(str.isalpha, core)))
                or any(c in core[1:-1] for c in "/.+#")
                or any(map(str.isupper, core[1:]))
            )
        if marked or (core[0].isupper() and not _sentence_start(text, match.start())):
            found.add(lower)
    return found


def _sentence_start(text: str, at: int) -> bool:
    """Whether the word at ``at`` begins a sentence: the last character before it that is not
    white space, read back from it, ends one (or there is none)."""
    at -= 1
    while at >= 0 and text[at].isspace():
        at -= 1
    return at < 0 or text[at] in ".!?:;\n(—–-\"'"


def breadth(text: str) -> int:
    """How many quantifiers claim a whole class of requests ("any question", "all tasks")."""
    count = 0
    for match in _QUANTIFIER.finditer(text):
        following = words_of(text[match.end() : match.end() + 60])[:3]
        if text[match.start() : match.end()].lower() in (
            "anything",
            "everything",
            "whatever",
        ) or not _BROAD_NOUNS.isdisjoint(map(_stem, following)):
            count += 1
    return count


_GENERIC_STEMS = frozenset(_stem(w) for w in GENERIC_NOUNS | GENERIC_VERBS)
_BROAD_NOUNS = frozenset(_stem(w) for w in GENERIC_NOUNS) | frozenset(
    _stem(w)
    for w in "question decision choice challenge dilemma conversation need kind type".split()
)


def analyse(
    description: str | None,
    when_to_use: str | None = None,
    name: str | None = None,
    exempt: str | None = None,
) -> TriggerAnalysis:
    """Score how well a description tells a router when to pick the skill (0 to 1)."""
    # A router reads what Claude Code's listing shows: the pair cut at LISTING_CHARS (PE111).
    # Reading no further also bounds the pairwise comparison of contexts (``distinct``).
    text = (description or "").strip()[:LISTING_CHARS]
    extra = (when_to_use or "").strip()[: LISTING_CHARS - len(text)]
    contributions: list[Contribution] = []

    both = text + " " + extra
    negative = any(pattern.search(both) is not None for pattern in NEGATIVE)
    proactive = _PROACTIVE.search(both) is not None
    found = PRECEDENCE.search(both)
    claim = " ".join(both[found.start() : found.end()].split()) if found is not None else None

    def result(
        score: float,
        band: str,
        has_trigger: bool = False,
        phrase: str | None = None,
        contexts: tuple[Context, ...] = (),
    ) -> TriggerAnalysis:
        if claim is not None and score > PRECEDENCE_CEILING:
            # Never a good trigger: it would fire on every neighbour's requests.
            contributions.append(
                Contribution(
                    f"claims precedence over every other skill ('{claim}'"
                    "): it would fire on its neighbours' requests",
                    round(PRECEDENCE_CEILING - score, 4),
                )
            )
            score, band = PRECEDENCE_CEILING, "weak"
        return TriggerAnalysis(
            has_trigger=has_trigger,
            trigger_phrase=phrase,
            contexts=contexts,
            negative=negative,
            proactive=proactive,
            exempt=exempt,
            score=round(min(1.0, max(0.0, score)), 4),
            band=band,
            contributions=tuple(contributions),
            precedence=claim,
        )

    if not text and not extra:
        contributions.append(
            Contribution("no description: nothing tells a router when to pick it", 0.0)
        )
        return result(0.0, "unusable")
    # display_width is never under len: measured only for text shorter than 20.
    if not extra and ((len(text) < 20 and display_width(text) < 20) or _vague(text, name)):
        contributions.append(
            Contribution(
                "description too short or vague to route on (it repeats the name, or names no "
                "situation or thing to match)",
                0.10,
            )
        )
        return result(0.10, "unusable")

    phrase_match = TRIGGER.search(text)
    clauses = _clauses(text, phrase_match)
    if extra:
        clauses.append(extra)
    phrase = _phrase(phrase_match, text) if phrase_match else ("when_to_use" if extra else None)
    all_contexts: list[Context] = []
    for clause in clauses:
        all_contexts += extract_contexts(clause)
    contexts = distinct(all_contexts)
    specific = [c for c in contexts if c.specific]

    if exempt and not clauses:
        contributions.append(
            Contribution(f"{exempt}: it does not trigger from its description", 0.50)
        )
        contributions.append(Contribution("description names its topic", 0.30))
        return result(0.80, "exempt", contexts=tuple(contexts))

    if phrase_match and not contexts:
        contributions.append(
            Contribution(f"trigger '{phrase}' but no situation after it (e.g. 'when needed')", 0.40)
        )
        return result(0.40, "partial", True, phrase)
    terms = technical_terms(both)
    broad = min(breadth(both), 2)
    boundary = negative or ALTERNATIVE.search(both) is not None
    if not clauses or not contexts:
        return _untriggered(text, terms, boundary, broad, contributions, result)

    n = len(specific)
    if n == 0:
        contributions.append(
            Contribution(
                f"trigger '{phrase}' with only generic contexts ({_quote(contexts)})", 0.47
            )
        )
        band, score = "partial", 0.47
    elif n == 1:
        contributions.append(
            Contribution(f"trigger '{phrase}' with one specific context ({_quote(specific)})", 0.55)
        )
        band, score = "partial", 0.55
    elif n == 2:
        contributions.append(
            Contribution(
                f"trigger '{phrase}' with two specific contexts ({_quote(specific)})", 0.70
            )
        )
        band, score = "good", 0.70
    else:
        more = min(n - 3, 2) * 0.03
        contributions.append(
            Contribution(
                f"trigger '{phrase}' with {n} specific, distinct contexts ({_quote(specific)})",
                round(0.85 + more, 4),
            )
        )
        band, score = "excellent", 0.85 + more
    score += _specificity(terms, contributions)
    # How much each situation names counts whatever their number: one precise situation
    # ("when a job OOMs on unified memory") routes better than three broad ones.
    if n >= 1:
        score += _richness(specific, contributions)
        score += _claimed(specific, contributions, description)
    if n >= 1 and boundary:
        contributions.append(
            Contribution("says when not to use it, or what to use instead (disambiguates)", 0.05)
        )
        score += 0.05
    if n >= 2 and proactive:
        contributions.append(Contribution("asks to be used proactively", 0.02))
        score += 0.02
    score += _broad(broad, contributions)
    ceiling = {0: 0.59, 1: 0.69, 2: 0.79}.get(n, 1.0)
    if score > ceiling:
        contributions.append(Contribution("capped at the band's top", round(ceiling - score, 4)))
        score = ceiling
    return result(score, band, True, phrase, tuple(contexts))


def first_sentence(text: str) -> str:
    """``text`` up to the end of its first sentence, as descriptions are read here (not cut
    at "e.g." or an initial)."""
    end = _SENTENCE_END.search(text)
    return text[: end.start()] if end else text


def repeats_name(text: str, name: str | None) -> bool:
    """Whether ``text`` names something and every word of it that does (not a stop word, nor
    a verb that says nothing of the task, "working with") is a word of the skill's name."""
    content = set(words_of(text)) - STOPWORDS - GENERIC_VERBS
    return bool(content) and content <= set(words_of((name or "").replace("-", " ")))


def _vague(text: str, name: str | None) -> bool:
    """Whether ``text`` names fewer than three things, or nothing its skill's name does not.
    A verb that says nothing of the task ("Use when working with tdd workflows tdd cycle")
    names nothing beyond the name either."""
    named = set(words_of((name or "").replace("-", " ")))
    if not text.isascii():
        content = set(words_of(text)).difference(STOPWORDS)
        return content - GENERIC_VERBS <= named or len(content) < 3
    # The words one by one (words_of's, see there), until three things and one the name
    # does not name are found: the answer is then no, and the rest of the text is not read.
    things: set[str] = set()
    unnamed = False
    for match in _WORD.finditer(text.lower()):
        word = match.group()
        if word in STOPWORDS:
            continue
        things.add(word)
        unnamed = unnamed or (word not in named and word not in GENERIC_VERBS)
        if unnamed and len(things) >= 3:
            return False
    return True


def _specificity(terms: set[str], contributions: list[Contribution]) -> float:
    """Named technologies, formats and products are what a router matches a prompt on."""
    # Half the weight it once had: on the tuning half of the validation set, how many terms a
    # description names ranks skills almost unlike their readers do (Spearman 0.09), and
    # the other points of the score carry what the terms are (README, Validation).
    points = round(0.01 * min(len(terms), 5) - 0.03 - (0.02 if not terms else 0.0), 4)
    shown = ", ".join(sorted(terms)[:5]) + (" …" if len(terms) > 5 else "")
    label = (
        f"{len(terms)} technical term(s) to match on ({shown})"
        if terms
        else "no technical term (a product, format or API) to match on"
    )
    contributions.append(Contribution(label, points))
    return points


def _richness(contexts: list[Context], contributions: list[Contribution]) -> float:
    """Concrete situations name several things ("when a job OOMs on unified memory"); broad
    ones name one ("securing APIs"). The mean number of naming words per context, 1 to 4."""
    named = [min(len([w for w in c.words if w not in _GENERIC_STEMS]), 4) for c in contexts]
    mean = sum(named) / len(named)
    points = round(0.04 * (mean - 2.5), 4)
    contributions.append(
        Contribution(f"its contexts name {mean:.1f} specific thing(s) each on average", points)
    )
    return points


def description_stems(text: str) -> set[str]:
    """The words of a description as contexts hold them: stop words left out, stemmed."""
    return {_stem(w) for w in words_of(text) if w not in STOPWORDS}


# A context routes by its most distinctive word: the one of its words that the fewest published
# descriptions of the reference table use. Each context loses CLAIMED_POINTS per unit of
# ln(1 + that count), averaged over the contexts and down to CLAIMED_FLOOR: nothing for a word
# no published description uses, -0.05 for one that 2 use, -0.15 once 19 do ("api" is in 34,
# "design" in 64). Only English contexts are read: the table is made of English descriptions,
# and every word of another language would look unheard of.
CLAIMED_POINTS = 0.05
CLAIMED_FLOOR = -0.15


def _claimed(
    contexts: list[Context], contributions: list[Contribution], description: str | None
) -> float:
    """How far the contexts' most distinctive words set the skill apart from the published
    skills around it: contexts whose rarest word dozens of skills use ("designing APIs",
    "improving application reliability") separate it from few neighbours. A description the
    table counted is not its own neighbour: its own words are taken out of the counts."""
    total, counts = reference_counts()
    own: set[str] = set()
    if description and description_digest(description) in reference_digests():
        own = description_stems(description)
    rarest: list[tuple[int, str]] = []
    for ctx in contexts:
        if ctx.words and all(w.isascii() for w in ctx.words):
            rarest.append(min((max(0, counts.get(w, 0) - (w in own)), w) for w in ctx.words))
    if not rarest:
        return 0.0
    mean = sum(math.log1p(n) for n, _ in rarest) / len(rarest)
    points = round(max(CLAIMED_FLOOR, -CLAIMED_POINTS * mean), 4)
    if not points:
        return 0.0
    shown = ", ".join(f"'{w}' {n}" for n, w in sorted(set(rarest), reverse=True)[:4])
    contributions.append(
        Contribution(
            f"how many of {total} published skill descriptions share each context's most"
            f" distinctive word ({shown}): the more, the fewer neighbours it sets it apart from",
            points,
        )
    )
    return points


def _broad(broad: int, contributions: list[Contribution]) -> float:
    if not broad:
        return 0.0
    contributions.append(
        Contribution(
            f"claims a whole class of requests ({broad}× 'any …' / 'all …'): separates nothing",
            -0.10 * broad,
        )
    )
    return -0.10 * broad


def _untriggered(
    text: str,
    terms: set[str],
    boundary: bool,
    broad: int,
    contributions: list[Contribution],
    result: Callable[[float, str], TriggerAnalysis],
) -> TriggerAnalysis:
    """No statement of when to use it: the topic and what it names are all a router has.

    A list of concrete capabilities with named formats and tools routes far better than a
    topic label, but never as well as a stated trigger (the score stays under 0.70)."""
    situation = SITUATION.search(text) is not None
    base = 0.35 if situation else 0.30
    contributions.append(
        Contribution(
            "mentions situations but never says to use the skill then"
            if situation
            else "names its topic but has no trigger phrase",
            base,
        )
    )
    found: list[Context] = []
    for sentence in _SENTENCE_END.split(text):
        found += extract_contexts(sentence or "")
    capabilities = sum(1 for ctx in distinct(found) if ctx.specific)
    score = base
    if capabilities > 2:
        points = round(0.05 * min(capabilities - 2, 5), 4)
        contributions.append(Contribution(f"lists {capabilities} concrete capabilities", points))
        score += points
    if len(terms) > 1:
        points = round(0.03 * min(len(terms) - 1, 8), 4)
        contributions.append(Contribution(f"{len(terms)} technical terms to match on", points))
        score += points
    if boundary:
        contributions.append(Contribution("says what to use instead (disambiguates)", 0.05))
        score += 0.05
    score += _broad(broad, contributions)
    if score > 0.69:
        contributions.append(
            Contribution("capped: without a trigger it cannot reach 'good'", round(0.69 - score, 4))
        )
        score = 0.69
    return result(score, "weak" if score < 0.40 else "partial")


def _phrase(match: re.Match[str], text: str) -> str:
    """The trigger words themselves, without a situation captured inside the match (read in
    ``text`` by their span: the match may be one in the lowercased text)."""
    if match.start("pre") >= 0:
        return text[match.end("pre") : match.end()].lstrip(" ,")
    return text[match.start() : match.end()].strip()


def _quote(contexts: list[Context] | tuple[Context, ...], limit: int = 4) -> str:
    shown = [f'"{one_line(c.text, 48)}"' for c in contexts[:limit]]
    if len(contexts) > limit:
        shown.append(f"+{len(contexts) - limit} more")
    return ", ".join(shown)
