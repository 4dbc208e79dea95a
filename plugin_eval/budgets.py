"""The size limits that rules and sub-scores both read, each with where it comes from.

One place for every budget, so a rule that reports a limit and the sub-score that credits
staying under it can never disagree. Each name is documented in the rule pages that use it.
"""

from __future__ import annotations

# Agent Skills specification: "keep SKILL.md under 500 lines"; Claude Code's skill guide
# recommends about 5,000 tokens for the body.
BODY_LINES = 500
BODY_TOKENS = 5000
# Half the budget: a body this small earns the sub-scores' "compact" credit.
COMPACT_LINES = 250
COMPACT_TOKENS = 2500
# PluginEval's BLOATED_SKILL anti-pattern: a body this long is a defect, not just long.
BLOATED_LINES = 800
# Specification: `description` 1–1,024 characters, `compatibility` 1–500, `name` 1–64.
DESCRIPTION_CHARS = 1024
COMPATIBILITY_CHARS = 500
NAME_CHARS = 64
# A description shorter than this says too little to route on.
DESCRIPTION_MIN_CHARS = 20
# Claude Code cuts `description` + `when_to_use` at this many characters in its listing.
LISTING_CHARS = 1536
# Codex reads the first 8,000 bytes of SKILL.md into its context; the rest is cut.
CODEX_BYTES = 8000
# Files listed per skill folder; a larger folder is listed this far and reported (PE011).
LISTED_FILES = 5000
# Skills scored per plugin; the rest are named in one error finding (PE012), never dropped
# silently. The largest plugin of 91 real ones has far fewer.
PLUGIN_SKILLS = 1000
# A marketplace.json is read up to this many bytes, and this many of its plugin entries;
# past either, a note says so (a real marketplace of hundreds of plugins is far smaller).
MARKETPLACE_BYTES = 4 * 1024 * 1024
MARKETPLACE_ENTRIES = 2000
# A skill's eval file (evals/*.json, *.yaml) is read up to this many bytes; a larger one is
# refused, named (a thousand hand-written cases take a few hundred KB).
EVAL_FILE_BYTES = 2 * 1024 * 1024
# Lines of a SKILL.md body parsed as Markdown (the longest of 874 real skills has under
# 2,000); past them PE005 says where, and the rest is read as lines of text only.
MARKDOWN_LINES = 300_000
# Cells of the tables of a SKILL.md body that the parser makes (a cell per column in each row,
# empty ones filled in), each a few parser tokens: the most of 874 real skills is under 1,000,
# while 4 MiB of "|" rows under a header of 1,000 columns would make 4 million (5 GB). Past
# them PE005 names the row, and the body from it on is read as lines of text only.
TABLE_CELLS = 100_000
# Bytes of a plugin's manifest, agent or command file read (real ones are a few KB): past it
# a manifest is not read and a part only its start, and PE501, PE601 or PE701 says so.
PART_BYTES = 1024 * 1024
# Events of one hook configuration that PE801 reads (Claude Code documents 26): past them the
# file is broken anyway, and PE801 says how many were left unread.
HOOK_EVENTS = 256
# Levels of blocks the Markdown parser reads nested (a list and its item are two, a quote
# one): markdown-it's default, where its CommonMark preset stops at 20 (a list ten deep).
# Deeper, PE005 names the line and the body from it on is read as lines of text only.
MARKDOWN_NESTING = 100
# Bytes of one .gitignore read by a search (git's own are rarely over a few KB).
GITIGNORE_BYTES = 256 * 1024
# Wildcards of one .gitignore pattern that pathspec's regular expression may backtrack over.
# A `**` with more of the pattern after it tries every depth of the folder checked (up to
# 2,000), and each `*` group after the first in one name every place in the name (up to 255).
# One of each keeps a check under about half a million steps (milliseconds); a second `**`
# took 30 s for a folder 2,000 deep, and a third `*` in a name 0.5 s for each folder of a
# tree 16 names deep. Real patterns (`**/*.min.*`, `src/**/*.*`, `*_test*.go`) stay within
# both; a line past either is not applied, and a note names it.
GITIGNORE_SPANNING_STARS = 1
GITIGNORE_EXTRA_STARS = 1
# Marks that open inline syntax ("[", "`", "<", "\\") read in one paragraph; past them the
# paragraph is plain text and PE005 says where (each mark can make a few parser tokens).
INLINE_MARKS = 100_000
# PluginEval's OVER_CONSTRAINED anti-pattern: more MUST/NEVER/ALWAYS directives than this.
MAX_DIRECTIVES = 15
# Nodes that YAML aliases may repeat in one frontmatter or eval file, beyond the one node each
# alias is written as; past it the document is refused (PE003), never expanded. Real ones
# repeat none, or a few defaults per case; nine lines of nested aliases repeat 9⁹.
YAML_ALIAS_NODES = 10_000
# Findings of one code in one file that a report lists; the rest are counted in one more
# finding of that code. One file of 4 MiB can hold 150,000 dead links: listing them all
# makes a report of 100 MB that nobody reads, and the count says as much.
FINDINGS_PER_CODE = 100
# Characters of one finding's message or fix, or one evidence line. Only skill text quoted in
# them (a link target, a key, a heading) makes one longer: it keeps its start and its end,
# with "…" between.
MESSAGE_CHARS = 400
# A skill's or plugin's name as a report shows it (headings, rows, annotation titles, JSON):
# a longer one (the specification allows 64) is cut in the middle, so one item's name can
# never push a job summary past GitHub's 1 MiB and hide the others.
SHOWN_NAME_CHARS = 200
# Markdown files SKILL.md points at that are read for the files they link in turn (an index),
# and how much of each: files reached that way are not unlinked (PE204, PE208), and PE207
# reports the chain.
LINKED_FILES_READ = 16
LINKED_FILE_BYTES = 512 * 1024
# Of each, the lines holding a link that PE212 parses and checks, and the bytes of such lines
# it parses in all the files of one skill (a line of 40,000 links costs a second to parse).
LINKS_READ_PER_FILE = 2000
LINK_BYTES_READ = 128 * 1024
# Files looked for in sibling skills, per skill (a script or reference the body points to that
# a sibling ships): existence checks only, and no more than this however many the body names.
SIBLING_FILE_CHECKS = 256
# Of the skills a body names, how many (each once, in order) a missing script is looked for in.
NAMED_SKILLS_SEARCHED = 16
# Then, of the hyphenated names its prose mentions (not as a dependency), how many.
MENTIONED_SKILLS_SEARCHED = 64
# Characters of one model reply (its text, tool name and tool arguments) that a run reads; a
# longer one is a failed call ("malformed"), never redacted, cached or stored. A reply is
# bounded by max_tokens (a few thousand tokens, tens of KB); a hostile or broken endpoint
# sending 50 MB would otherwise cost gigabytes to redact and cache.
MODEL_REPLY_CHARS = 1_000_000
# Bytes of a model reply's HTTP body read, uncompressed (compression is refused): the JSON
# around a reply of MODEL_REPLY_CHARS, with room for escapes. Past it the body is cut, and
# the reply is malformed.
MODEL_REPLY_BYTES = 8 * 1024 * 1024
# dataset-score: bytes of one item, a line of JSON Lines or a file of one object (the seed's
# item is five cleaned texts and one object, a few KB); a longer line is a bad item of its
# own, read past, and a longer file of one item is refused. JSON Lines are read and scored a
# line at a time, so a file of any number of items costs the memory of one.
DATASET_ITEM_BYTES = 16 * 1024 * 1024
# dataset-score: how much comparing an item's cleaned texts pair by pair may cost, counted
# as one per pair plus the words of the smaller text of each pair (some 20 million a second).
# The seed sends five texts; 1,000 short texts cost about a million, while 6,000 of one word
# cost 18 million pairs. Past it the item is refused, with what it would cost.
PAIRWISE_WORK = 20_000_000
