"""The matcher's stages; `errkb.matcher` is the public front that runs them.

- `align`: a message's tokens aligned in order to the log's tokens, gaps allowed;
- `lexical`: the second stage, a BM25 ranking of every entry's text against the log's
  error lines, for pastes no stored wording catches ("possible matches");
- `context`: the lines around a match decide between entries that share its wording;
- `normalize`: the cleaning rules, tokens, and the joined lines substring searches run on;
- `needles`: the literal text every match of a pattern contains (the pattern prefilter);
- `entry`: the entry fields the stages read.

Speed only (no ranking changes; the browser does without them):
- `repeats`: a stretch of the log that copies an earlier one is not aligned again;
- `lines`: a needle is looked for only in the distinct lines holding its rarest inner word.

Each stage's data is built here at build time and exported in `matcher.json`, and
`docs/assets/javascripts/matcher.js` runs the same arithmetic in the same order.
"""
