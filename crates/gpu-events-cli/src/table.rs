//! Plain-text tables with columns padded to the widest cell, like kubectl's printers.

use std::io::{self, Write};

/// Rows of cells under a header; the last column is not padded.
pub struct Table {
    header: Vec<&'static str>,
    rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new(header: Vec<&'static str>) -> Self {
        Table { header, rows: Vec::new() }
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
        for row in std::iter::once(&header).chain(&self.rows) {
            let mut line = String::new();
            for (i, cell) in row.iter().enumerate() {
                if i + 1 == columns {
                    line.push_str(cell);
                } else {
                    let pad = widths[i] - cell.chars().count() + 3;
                    line.push_str(cell);
                    line.extend(std::iter::repeat_n(' ', pad));
                }
            }
            writeln!(out, "{}", line.trim_end())?;
        }
        Ok(())
    }
}
