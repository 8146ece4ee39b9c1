//! Plain-text tables with columns padded to the widest cell, like kubectl's printers, with
//! optional colour (styles go around the text, padding stays plain, so columns line up).

use std::io::{self, IsTerminal, Write};
use std::sync::OnceLock;

use anstyle::{AnsiColor, Style};

/// `--color`: when to colour what the command prints (tables on stdout, logs on stderr).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless `NO_COLOR` is set to something (<https://no-color.org>).
    #[default]
    Auto,
    /// Always, even into a pipe or file.
    Always,
    /// Never.
    Never,
}

/// The choice of this run, set once by `main` before anything is printed.
static COLOR: OnceLock<ColorChoice> = OnceLock::new();

/// Record the `--color` choice of this run (the first call wins).
pub fn set_color(choice: ColorChoice) {
    let _ = COLOR.set(choice);
}

fn colour(terminal: bool) -> bool {
    match COLOR.get().copied().unwrap_or_default() {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    }
}

/// Whether to colour standard output (see [`ColorChoice`]).
pub fn colour_stdout() -> bool {
    colour(io::stdout().is_terminal())
}

/// Whether to colour standard error, where logs go (see [`ColorChoice`]).
pub fn colour_stderr() -> bool {
    colour(io::stderr().is_terminal())
}

/// The style of a cell: Warning types in yellow, the header bold.
fn style(header: bool, cell: &str) -> Style {
    if header {
        Style::new().bold()
    } else if cell == "Warning" {
        AnsiColor::Yellow.on_default()
    } else {
        Style::new()
    }
}

/// Rows of cells under a header; the last column is not padded.
pub struct Table {
    header: Vec<&'static str>,
    rows: Vec<Vec<String>>,
    colour: bool,
    headers: bool,
}

impl Table {
    pub fn new(header: Vec<&'static str>) -> Self {
        Table { header, rows: Vec::new(), colour: false, headers: true }
    }

    /// Print the header row (the default), or not (`--no-headers`).
    pub fn headers(mut self, headers: bool) -> Self {
        self.headers = headers;
        self
    }

    /// Colour the output (see [`colour_stdout`]).
    pub fn coloured(mut self, colour: bool) -> Self {
        self.colour = colour;
        self
    }

    pub fn push(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }

    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        let columns = self.header.len();
        let mut widths: Vec<usize> = self.header.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (width, cell) in widths.iter_mut().zip(row) {
                *width = (*width).max(cell.chars().count());
            }
        }
        let header: Vec<String> = self.header.iter().map(|h| (*h).to_owned()).collect();
        let skip = usize::from(!self.headers);
        for (index, row) in std::iter::once(&header).chain(&self.rows).enumerate().skip(skip) {
            let mut line = String::new();
            for (i, cell) in row.iter().enumerate() {
                let styled = if self.colour {
                    let style = style(index == 0, cell);
                    format!("{style}{cell}{style:#}")
                } else {
                    cell.clone()
                };
                line.push_str(&styled);
                if i + 1 < columns {
                    let pad = widths[i] - cell.chars().count() + 3;
                    line.extend(std::iter::repeat_n(' ', pad));
                }
            }
            writeln!(out, "{}", line.trim_end())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_goes_around_the_text_and_columns_stay_aligned() {
        let mut table = Table::new(vec!["TYPE", "REASON"]).coloured(true);
        table.push(vec!["Warning".into(), "BackOff".into()]);
        table.push(vec!["Normal".into(), "Pulled".into()]);
        let mut out = Vec::new();
        table.write(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\u{1b}[33mWarning\u{1b}[0m   BackOff"), "{text:?}");
        let plain: String = {
            let mut plain = Vec::new();
            let mut table = Table::new(vec!["TYPE", "REASON"]);
            table.push(vec!["Warning".into(), "BackOff".into()]);
            table.push(vec!["Normal".into(), "Pulled".into()]);
            table.write(&mut plain).unwrap();
            String::from_utf8(plain).unwrap()
        };
        assert_eq!(plain, "TYPE      REASON\nWarning   BackOff\nNormal    Pulled\n");
    }
}
