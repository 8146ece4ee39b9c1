//! Which lines each built-in rule can match, found in one pass over the text so that most lines
//! pay almost nothing: the rules' literal triggers (ASCII case-insensitive), a `memchr` for `@`,
//! and one `memchr3` walk over `.`, `:` and `-` for the address shapes (a dotted quad, an IPv6 or
//! MAC candidate, a provider resource id such as `i-0123...` or `eni-0a1b...`). Each trigger is a necessary condition for its rule's match, so
//! a line without one cannot match and is skipped; a false trigger only costs running that rule's
//! regex on that line.
//!
//! The literals are found in two steps on a large text. A screen (Teddy, the SIMD searcher of
//! `aho_corasick::packed`, over the lower-cased literals) runs over a lower-cased copy of the
//! text, made a block at a time; only the lines where it finds something are searched with the
//! full automaton (every literal, overlapping, case-insensitive), which says which rules each
//! line triggers. The automaton alone runs as a DFA at about 1 ns a byte (with ~60 patterns no
//! prefilter of its own applies); the screen is several times faster, and lines with a literal
//! are rare. A short text, or a machine without SSSE3/AVX2, gets the automaton alone; both paths
//! give the same lines (a test compares them).

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind, packed};
use memchr::{memchr, memchr3_iter, memmem, memrchr};

use super::rules::{Builtin, Trigger};

/// The triggers of a set of rules (rule `i` is bit `i` of a mask).
#[derive(Debug)]
pub(crate) struct Prefilter {
    /// Every literal, ASCII case-insensitive, for overlapping search: the rules of a line.
    literals: AhoCorasick,
    /// The rules each literal triggers, by pattern index.
    literal_rules: Vec<u64>,
    /// The lower-cased literals that contain no other one, searched (case-sensitively) in a
    /// lower-cased copy of a large text to find the lines that hold a literal; `None` when Teddy
    /// is not available here.
    screen: Option<packed::Searcher>,
    /// The length of the longest literal (how much the screen's blocks overlap).
    longest: usize,
    dotted_quad: u64,
    ipv6: u64,
    mac: u64,
    at: u64,
    /// The words of [`Trigger::DashedId`] rules, each with the rules it triggers.
    dashed_ids: Vec<(&'static [u8], u64)>,
    /// The length of the longest of them.
    dashed_longest: usize,
    /// The whole-text rules, with the literal that triggers them.
    multiline: Vec<(&'static str, u64)>,
}

/// A line (`start..end`, without its line break) and the rules it may match.
pub(crate) type Line = (usize, usize, u64);

impl Prefilter {
    /// The triggers of `rules` (at most 64, checked by the caller).
    pub(crate) fn new(rules: &[Builtin]) -> Prefilter {
        let mut patterns: Vec<String> = Vec::new();
        let mut literal_rules: Vec<u64> = Vec::new();
        let (mut dotted_quad, mut ipv6, mut mac, mut at) = (0, 0, 0, 0);
        let mut dashed_ids: Vec<(&'static [u8], u64)> = Vec::new();
        let mut multiline: Vec<(&'static str, u64)> = Vec::new();
        for (index, rule) in rules.iter().enumerate() {
            let bit = 1u64 << index;
            match rule.trigger {
                Trigger::Literals(literals) => {
                    for literal in literals {
                        let literal = literal.to_ascii_lowercase();
                        match patterns.iter().position(|p| *p == literal) {
                            Some(at) => literal_rules[at] |= bit,
                            None => {
                                patterns.push(literal);
                                literal_rules.push(bit);
                            }
                        }
                    }
                }
                Trigger::DottedQuad => dotted_quad |= bit,
                Trigger::At => at |= bit,
                Trigger::DashedId(words) => {
                    for word in words {
                        match dashed_ids.iter_mut().find(|(w, _)| *w == word.as_bytes()) {
                            Some((_, mask)) => *mask |= bit,
                            None => dashed_ids.push((word.as_bytes(), bit)),
                        }
                    }
                }
                Trigger::Ipv6 => ipv6 |= bit,
                Trigger::Mac => mac |= bit,
                Trigger::Multiline(literal) => match multiline.iter_mut().find(|(l, _)| *l == literal) {
                    Some((_, mask)) => *mask |= bit,
                    None => multiline.push((literal, bit)),
                },
            }
        }
        let literals = AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .build(&patterns)
            .expect("the built-in trigger literals build an automaton");
        // A literal that contains another one is found through that one's line.
        // (The patterns are distinct.)
        // Teddy takes at most 64 patterns (a test checks that they fit).
        let mut screen = packed::Config::new().match_kind(packed::MatchKind::LeftmostFirst).builder();
        for stem in patterns.iter().filter(|p| !patterns.iter().any(|q| q != *p && p.contains(q.as_str()))) {
            screen.add(stem);
        }
        let screen = screen.build();
        let longest = patterns.iter().map(String::len).max().unwrap_or(0);
        let dashed_longest = dashed_ids.iter().map(|(word, _)| word.len()).max().unwrap_or(0);
        Prefilter {
            literals,
            literal_rules,
            screen,
            longest,
            dotted_quad,
            ipv6,
            mac,
            at,
            dashed_ids,
            dashed_longest,
            multiline,
        }
    }

    /// The whole-text rules whose trigger occurs in `text`.
    pub(crate) fn multiline(&self, text: &str) -> u64 {
        self.multiline
            .iter()
            .filter(|(literal, _)| memmem::find(text.as_bytes(), literal.as_bytes()).is_some())
            .fold(0, |mask, (_, rules)| mask | rules)
    }

    /// The lines of `text` with a trigger, in order, each once, with the rules triggered there.
    pub(crate) fn lines(&self, text: &str, lines: &mut Vec<Line>) {
        let bytes = text.as_bytes();
        let mut hits: Vec<(usize, u64)> = Vec::new();
        self.literal_hits(bytes, SCREEN_MIN, &mut hits);
        if self.at != 0 {
            hits.extend(memchr::memchr_iter(b'@', bytes).map(|i| (i, self.at)));
        }
        if self.dotted_quad | self.ipv6 | self.mac != 0 || !self.dashed_ids.is_empty() {
            self.shapes(bytes, &mut hits);
        }
        // Overlapping literal matches come by end, the shapes after them: put them in text order.
        if !hits.is_sorted_by_key(|&(at, _)| at) {
            hits.sort_unstable_by_key(|&(at, _)| at);
        }
        let mut next_line = 0;
        for (at, mask) in hits {
            if let Some(last) = lines.last_mut()
                && at < last.1
                && at >= last.0
            {
                last.2 |= mask;
                continue;
            }
            let start = memrchr(b'\n', &bytes[next_line..at]).map_or(next_line, |i| next_line + i + 1);
            let end = memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
            lines.push((start, end, mask));
            next_line = (end + 1).min(bytes.len());
        }
    }

    /// Where the literals occur, each with the rules it triggers: in a text of `screen_min` bytes
    /// or more, only on the lines the screen picked (every occurrence there).
    fn literal_hits(&self, bytes: &[u8], screen_min: usize, hits: &mut Vec<(usize, u64)>) {
        let all = |start: usize, end: usize, hits: &mut Vec<(usize, u64)>| {
            for found in self.literals.find_overlapping_iter(&bytes[start..end]) {
                hits.push((start + found.start(), self.literal_rules[found.pattern().as_usize()]));
            }
        };
        let Some(screen) = self.screen.as_ref().filter(|_| bytes.len() >= screen_min && self.longest > 0) else {
            all(0, bytes.len(), hits);
            return;
        };
        let mut folded = vec![0; BLOCK.min(bytes.len())];
        // The end of the last line searched with the automaton.
        let mut searched = 0;
        let mut start = 0;
        loop {
            let end = (start + BLOCK).min(bytes.len());
            let block = &mut folded[..end - start];
            fold(&bytes[start..end], block);
            for found in screen.find_iter(&*block) {
                let at = start + found.start();
                if at < searched {
                    continue; // On a line already searched (blocks overlap).
                }
                let line_start = memrchr(b'\n', &bytes[searched..at]).map_or(searched, |i| searched + i + 1);
                let line_end = memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
                all(line_start, line_end, hits);
                searched = line_end;
            }
            if end == bytes.len() {
                return;
            }
            // A literal cut by the block's end lies whole in the next block.
            start = end - (self.longest - 1);
        }
    }

    /// The rules of the [`Trigger::DashedId`] word before the `-` at `at` (a lower-case word at a
    /// word start, then a hex digit after the dash).
    fn dashed_id(&self, bytes: &[u8], at: usize) -> Option<u64> {
        if self.dashed_ids.is_empty() || !bytes.get(at + 1).is_some_and(u8::is_ascii_hexdigit) {
            return None;
        }
        let mut start = at;
        while start > 0 && at - start <= self.dashed_longest && bytes[start - 1].is_ascii_lowercase() {
            start -= 1;
        }
        let word_start = start == 0 || !(bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_');
        if start == at || at - start > self.dashed_longest || !word_start {
            return None;
        }
        let word = &bytes[start..at];
        let mask = self.dashed_ids.iter().filter(|(w, _)| *w == word).fold(0, |mask, (_, rules)| mask | rules);
        (mask != 0).then_some(mask)
    }

    /// Address-shaped candidates: each run of address characters is looked at once.
    fn shapes(&self, bytes: &[u8], hits: &mut Vec<(usize, u64)>) {
        // Where the last run of each kind ended (a colon run may hold a dotted quad).
        let (mut dots_until, mut colons_until, mut dashes_until) = (0, 0, 0);
        for at in memchr3_iter(b'.', b':', b'-', bytes) {
            match bytes[at] {
                b'.' if self.dotted_quad != 0 && at >= dots_until => {
                    let digit = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_digit);
                    if at == 0 || !digit(at - 1) || !digit(at + 1) {
                        continue;
                    }
                    let (_, end, dots, _) = run(bytes, at, |b| b.is_ascii_digit() || b == b'.');
                    dots_until = end;
                    if dots >= 3 {
                        hits.push((at, self.dotted_quad));
                    }
                }
                b':' if self.ipv6 | self.mac != 0 && at >= colons_until => {
                    // A colon alone (`"key": value`, `reason: text`) is no candidate: skip the run.
                    let part =
                        |i: usize| bytes.get(i).is_some_and(|&b| b.is_ascii_hexdigit() || b == b':' || b == b'.');
                    if (at == 0 || !part(at - 1)) && !part(at + 1) {
                        continue;
                    }
                    let (_, end, colons, double) = run(bytes, at, |b| b.is_ascii_hexdigit() || b == b':' || b == b'.');
                    colons_until = end;
                    let mut mask = 0;
                    if colons >= 5 {
                        mask |= self.mac;
                    }
                    if double || colons >= 6 {
                        mask |= self.ipv6;
                    }
                    if mask != 0 {
                        hits.push((at, mask));
                    }
                }
                b'-' => {
                    if let Some(mask) = self.dashed_id(bytes, at) {
                        hits.push((at, mask));
                    }
                    if self.mac == 0 || at < dashes_until {
                        continue;
                    }
                    // Six pairs of hex digits joined by dashes, this dash the first.
                    let hex = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_hexdigit);
                    if at >= 2
                        && hex(at - 2)
                        && hex(at - 1)
                        && (0..5)
                            .all(|k| bytes.get(at + 3 * k) == Some(&b'-') && hex(at + 3 * k + 1) && hex(at + 3 * k + 2))
                    {
                        hits.push((at, self.mac));
                        dashes_until = at + 15;
                    }
                }
                _ => {}
            }
        }
    }
}

/// Texts at least this long are screened (see the module docs); the automaton alone is as fast on
/// shorter ones, without the screen's copy.
const SCREEN_MIN: usize = 4096;

/// How much of the text is lower-cased at a time for the screen (stays in the cache).
const BLOCK: usize = 64 * 1024;

/// `text` with ASCII letters lower-cased into `out` (of the same length); a loop the compiler
/// turns into vector instructions.
fn fold(text: &[u8], out: &mut [u8]) {
    for (to, &from) in out.iter_mut().zip(text) {
        *to = from.to_ascii_lowercase();
    }
}

/// The run of bytes around `at` that satisfy `part`: its end, how many of `bytes[at]` it holds,
/// and whether two of them are adjacent (`::`).
fn run(bytes: &[u8], at: usize, part: impl Fn(u8) -> bool) -> (usize, usize, usize, bool) {
    let mark = bytes[at];
    let mut start = at;
    while start > 0 && part(bytes[start - 1]) {
        start -= 1;
    }
    let mut end = at + 1;
    while end < bytes.len() && part(bytes[end]) {
        end += 1;
    }
    let run = &bytes[start..end];
    let count = run.iter().filter(|&&b| b == mark).count();
    let double = run.windows(2).any(|pair| pair[0] == mark && pair[1] == mark);
    (start, end, count, double)
}

#[cfg(test)]
mod tests {
    use super::super::rules::{BUILTINS, Trigger};
    use super::*;

    fn literals() -> Vec<&'static str> {
        BUILTINS
            .iter()
            .filter_map(|rule| match rule.trigger {
                Trigger::Literals(literals) => Some(literals),
                _ => None,
            })
            .flatten()
            .copied()
            .collect()
    }

    /// The screen and the automaton alone on `text`: the same literal hits.
    fn same_hits(prefilter: &Prefilter, text: &[u8]) {
        let (mut screened, mut alone) = (Vec::new(), Vec::new());
        prefilter.literal_hits(text, 0, &mut screened);
        prefilter.literal_hits(text, usize::MAX, &mut alone);
        assert_eq!(screened, alone, "{:?}", String::from_utf8_lossy(text).chars().take(200).collect::<String>());
    }

    #[test]
    fn dashed_ids_are_found_at_word_starts_only() {
        let prefilter = Prefilter::new(BUILTINS);
        let found = |text: &str| {
            let mut hits = Vec::new();
            prefilter.shapes(text.as_bytes(), &mut hits);
            hits.iter()
                .any(|&(_, mask)| mask != 0 && mask & (prefilter.dotted_quad | prefilter.ipv6 | prefilter.mac) == 0)
        };
        for id in ["i-0123abcd", "x eni-0a1b", "/vol-9", "(subnet-12ab", "\"sg-0f", "fsap-1", "eipalloc-0a"] {
            assert!(found(id), "{id:?}");
        }
        for name in ["gpui-0123", "xeni-0a1b", "vol-xyz", "snapshot-0a", "sg_x-0f", "SG-0f", "notaprefix-0a", "fs-"] {
            assert!(!found(name), "{name:?}");
        }
    }

    #[test]
    fn the_screen_finds_the_lines_of_every_literal() {
        let prefilter = Prefilter::new(BUILTINS);
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("ssse3") {
            assert!(prefilter.screen.is_some(), "Teddy takes the trigger literals");
        }
        let filler = "0/8 nodes are available: 8 Insufficient nvidia.com/gpu on gpu-node-3, v1.28.3 10Gi\n";
        let base = filler.repeat(BLOCK / filler.len() + 2);
        // Each literal as written, upper-cased and capitalized, on both sides of the first
        // block's end and across it (where the second block's overlap must find it).
        for literal in literals() {
            let capitalized = literal[..1].to_ascii_uppercase() + &literal[1..];
            for written in [literal.to_owned(), literal.to_ascii_uppercase(), capitalized] {
                // Before the first block's end, across it (every cut), at it and just after.
                let n = written.len();
                let across = (BLOCK + 1 - n..BLOCK).step_by(n.div_ceil(3).max(1));
                for at in [BLOCK - prefilter.longest - 1, BLOCK - n].into_iter().chain(across).chain([BLOCK, BLOCK + 1])
                {
                    let mut text = base.clone().into_bytes();
                    text[at..at + written.len()].copy_from_slice(written.as_bytes());
                    same_hits(&prefilter, &text);
                    let mut hits = Vec::new();
                    prefilter.literal_hits(&text, 0, &mut hits);
                    assert!(hits.iter().any(|&(start, _)| start == at), "{written:?} at {at}");
                }
            }
        }
        // Every literal, many to a line and one a line, over several blocks; and no literal.
        let all = literals().join(" x ");
        let mut text = String::new();
        while text.len() < 4 * BLOCK {
            text.push_str(filler);
            text.push_str(&all);
            text.push('\n');
            text.push_str(&literals().join("\n"));
        }
        same_hits(&prefilter, text.as_bytes());
        same_hits(&prefilter, base.as_bytes());
        let mut hits = Vec::new();
        prefilter.literal_hits(base.as_bytes(), 0, &mut hits);
        assert!(hits.is_empty());
    }
}
