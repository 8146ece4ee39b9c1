//! Which lines each built-in rule can match, found in one pass over the text so that most lines
//! pay almost nothing: one Aho-Corasick search (ASCII case-insensitive) for every rule's literal
//! triggers, a `memchr` for `@`, and one `memchr3` walk over `.`, `:` and `-` for the address
//! shapes (a dotted quad, an IPv6 or MAC candidate, an instance id). With ~60 patterns the
//! search runs as a DFA at about 1 ns a byte (no SIMD prefilter applies, folded or not:
//! `examples/redact_cost`); that pass is most of redaction's cost on a large dump. Each trigger is a necessary condition for its rule's
//! match, so a line without one cannot match and is skipped; a false trigger only costs running
//! that rule's regex on that line.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use memchr::{memchr, memchr3_iter, memmem, memrchr};

use super::rules::{Builtin, Trigger};

/// The triggers of a set of rules (rule `i` is bit `i` of a mask).
#[derive(Debug)]
pub(crate) struct Prefilter {
    literals: AhoCorasick,
    /// The rules each literal triggers, by pattern index.
    literal_rules: Vec<u64>,
    dotted_quad: u64,
    ipv6: u64,
    mac: u64,
    at: u64,
    instance: u64,
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
        let (mut dotted_quad, mut ipv6, mut mac, mut at, mut instance) = (0, 0, 0, 0, 0);
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
                Trigger::InstanceId => instance |= bit,
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
        Prefilter { literals, literal_rules, dotted_quad, ipv6, mac, at, instance, multiline }
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
        for found in self.literals.find_overlapping_iter(bytes) {
            hits.push((found.start(), self.literal_rules[found.pattern().as_usize()]));
        }
        if self.at != 0 {
            hits.extend(memchr::memchr_iter(b'@', bytes).map(|i| (i, self.at)));
        }
        if self.dotted_quad | self.ipv6 | self.mac | self.instance != 0 {
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
                b'-' if self.instance != 0
                    && at >= 1
                    && bytes[at - 1] == b'i'
                    && (at == 1 || !(bytes[at - 2].is_ascii_alphanumeric() || bytes[at - 2] == b'_'))
                    && bytes.get(at + 1).is_some_and(u8::is_ascii_hexdigit) =>
                {
                    hits.push((at, self.instance));
                }
                b'-' if self.mac != 0 && at >= dashes_until => {
                    let hex = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_hexdigit);
                    if at >= 2
                        && hex(at - 2)
                        && hex(at - 1)
                        && hex(at + 1)
                        && hex(at + 2)
                        && bytes.get(at + 3) == Some(&b'-')
                    {
                        hits.push((at, self.mac));
                        dashes_until = at + 3;
                    }
                }
                _ => {}
            }
        }
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
