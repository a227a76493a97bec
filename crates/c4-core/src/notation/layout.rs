//! Board pictures: the source programs' layouts, drawn for any board size.
//! Only text is made here; printing it is the caller's business.
//!
//! Every layout draws the top row first, ends each line with `\n`, and has no trailing spaces and
//! no empty lines. On the standard 7x6 board each reproduces its source program byte for byte.
//! Column labels are the source's own ([`render`]) or any others ([`render_labelled`]), so that a
//! program can label columns the way it asks people to type them.

use crate::rules::{Board, Variant};

/// One of the source programs' board layouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Style {
    /// The grid program's boxed grid with `+---+` rules, `| x |` cells and a `col 1   2` footer.
    /// Labels 10-16 start where a one-digit label would, so they lean one place right.
    Grid,
    /// The dots program's `.` for empty cells, every cell three characters wide, under a header of
    /// column numbers. Labels are right-aligned in two places, so the last digit of `10`-`16`
    /// sits above its column's tokens just as `1`-`9` do.
    Dots,
    /// The letters program's letter header `ABCDEFG` (up to `P`) over rows of tokens and `.`, no
    /// spaces.
    Letters,
    /// The pipes program's `|X|O| |` rows over a rule of `2*width+1` dashes and 0-based column
    /// labels, which wrap to `0` after `9` (as that program does) so that each stays one character
    /// under its cell.
    Pipes,
    /// The numbers program's grid of numbers: `0` for an empty cell and the player's number (`1`,
    /// `2`, up to `8` with more players) for a stone, one space between cells, no labels.
    Numbers,
    /// The dots program's other layout, from its requirements: a header of column numbers over
    /// rows of tokens and `-` for empty, every field separated by one tab.
    Tabs,
}

impl Style {
    /// Every style, in the order they are listed to users.
    pub const ALL: [Style; 6] = [
        Style::Grid,
        Style::Dots,
        Style::Letters,
        Style::Pipes,
        Style::Numbers,
        Style::Tabs,
    ];

    /// The style called `name` (`grid`, `dots`, `letters`, `pipes` or `numbers`, lowercase), if
    /// any.
    pub fn from_name(name: &str) -> Option<Style> {
        Style::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The label the source program gave 1-based column `number` (1 to 16): `4` (grid, dots),
    /// `D` (letters) or `3` (pipes, which count from 0). Numbers has no labels.
    pub(crate) fn source_label(self, number: u64) -> String {
        match self {
            Style::Grid | Style::Dots | Style::Numbers | Style::Tabs => number.to_string(),
            Style::Letters => ((b'A' + number as u8 - 1) as char).to_string(),
            Style::Pipes => (number - 1).to_string(),
        }
    }

    /// The style's name, as [`Style::from_name`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            Style::Grid => "grid",
            Style::Dots => "dots",
            Style::Letters => "letters",
            Style::Pipes => "pipes",
            Style::Numbers => "numbers",
            Style::Tabs => "tabs",
        }
    }
}

/// Draws `board` in `style` with `variant`'s tokens and the source's column labels: lines joined
/// by `\n`, with a final `\n`. `board` must have `variant`'s size.
pub fn render(board: &Board, variant: &Variant, style: Style) -> String {
    render_labelled(board, variant, style, &|number| style.source_label(number))
}

/// Draws `board` as [`render`] does, with `label(number)` as the label of 1-based column
/// `number`. Labels of one or two characters keep every layout aligned; the letters header and
/// the pipes footer, one character per column, take each label's last character.
pub fn render_labelled(
    board: &Board,
    variant: &Variant,
    style: Style,
    label: &dyn Fn(u64) -> String,
) -> String {
    debug_assert_eq!(
        (board.width(), board.height()),
        (variant.width(), variant.height())
    );
    let picture = Picture {
        board,
        variant,
        label,
    };
    let lines = match style {
        Style::Grid => picture.grid(),
        Style::Dots => picture.dots(),
        Style::Letters => picture.letters(),
        Style::Pipes => picture.pipes(),
        Style::Numbers => picture.numbers(),
        Style::Tabs => picture.tabs(),
    };
    joined(lines)
}

/// Draws `board` as a program that counts columns from 0 shows it: its tokens and `.` one space
/// apart, over each column's 0-based index, wrapping to `0` after `9` as the pipes layout's
/// labels do so that each stays under its cell; lines joined by `\n`, with a final `\n`. The
/// Python package's `str(board)`.
pub fn render_indexed(board: &Board, variant: &Variant) -> String {
    let picture = Picture {
        board,
        variant,
        label: &|number| ((number - 1) % 10).to_string(),
    };
    let spaced = |cells: Vec<char>| {
        let cells: Vec<String> = cells.iter().map(char::to_string).collect();
        cells.join(" ")
    };
    let mut lines: Vec<String> = picture
        .rows()
        .map(|row| {
            spaced(
                picture
                    .columns()
                    .map(|c| picture.cell(row, c, '.'))
                    .collect(),
            )
        })
        .collect();
    lines.push(spaced(
        picture.columns().map(|c| picture.label_char(c)).collect(),
    ));
    joined(lines)
}

/// `lines` with their trailing spaces trimmed, each ended by `\n`.
fn joined(lines: Vec<String>) -> String {
    let mut text = String::new();
    for line in lines {
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

/// A board with the tokens and column labels to draw it in; each method returns the lines of
/// one style, which `render_labelled` trims and joins, so a cell drawn as spaces at the end of a
/// line leaves no trace.
struct Picture<'a> {
    board: &'a Board,
    variant: &'a Variant,
    label: &'a dyn Fn(u64) -> String,
}

impl Picture<'_> {
    /// The cell's token, or `empty`.
    fn cell(&self, row: usize, column: usize, empty: char) -> char {
        self.board
            .at(row, column)
            .map_or(empty, |p| self.variant.token(p).as_char())
    }

    /// Row indices, top row first, as every layout draws them.
    fn rows(&self) -> std::iter::Rev<std::ops::Range<usize>> {
        (0..self.board.height()).rev()
    }

    fn columns(&self) -> std::ops::Range<usize> {
        0..self.board.width()
    }

    /// The label of 0-based `column`.
    fn label(&self, column: usize) -> String {
        (self.label)(column as u64 + 1)
    }

    /// The last character of the label of 0-based `column`, for layouts with one per column.
    fn label_char(&self, column: usize) -> char {
        self.label(column).chars().last().unwrap_or(' ')
    }

    /// One row's cells, each drawn by `draw` from its token or `empty`, run together.
    fn row(&self, row: usize, empty: char, draw: impl Fn(char) -> String) -> String {
        self.columns()
            .map(|column| draw(self.cell(row, column, empty)))
            .collect()
    }

    fn grid(&self) -> Vec<String> {
        let rule = format!("  +{}", "---+".repeat(self.board.width()));
        let mut lines = vec![rule.clone()];
        for row in self.rows() {
            lines.push(format!("  |{}", self.row(row, ' ', |c| format!(" {c} |"))));
            lines.push(rule.clone());
        }
        // Cell centres are four apart and the first is under `col `'s end, as in the source.
        let labels: String = self
            .columns()
            .map(|column| format!(" {:<3}", self.label(column)))
            .collect();
        lines.push(format!("col{labels}"));
        lines
    }

    fn dots(&self) -> Vec<String> {
        let header = self
            .columns()
            .map(|column| format!("{:>2} ", self.label(column)))
            .collect();
        let mut lines = vec![header];
        lines.extend(
            self.rows()
                .map(|row| self.row(row, '.', |c| format!(" {c} "))),
        );
        lines
    }

    fn letters(&self) -> Vec<String> {
        let header = self.columns().map(|c| self.label_char(c)).collect();
        let mut lines = vec![header];
        lines.extend(self.rows().map(|row| self.row(row, '.', String::from)));
        lines
    }

    fn pipes(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .rows()
            .map(|row| format!("|{}", self.row(row, ' ', |c| format!("{c}|"))))
            .collect();
        lines.push("-".repeat(2 * self.board.width() + 1));
        lines.push(
            self.columns()
                .map(|column| format!(" {}", self.label_char(column)))
                .collect(),
        );
        lines
    }

    /// Never a trailing tab: the last field is a label, `-` or a token.
    fn tabs(&self) -> Vec<String> {
        let header = self
            .columns()
            .map(|column| self.label(column))
            .collect::<Vec<_>>()
            .join("\t");
        let mut lines = vec![header];
        lines.extend(self.rows().map(|row| {
            self.columns()
                .map(|column| self.cell(row, column, '-').to_string())
                .collect::<Vec<_>>()
                .join("\t")
        }));
        lines
    }

    fn numbers(&self) -> Vec<String> {
        self.rows()
            .map(|row| {
                self.columns()
                    .map(|column| self.board.at(row, column).map_or(0, |p| p.index() + 1))
                    .map(|number| number.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Cell, Token};

    fn variant(width: usize, height: usize, tokens: [char; 2]) -> Variant {
        let tokens = tokens.map(|c| Token::new(c).unwrap()).to_vec();
        Variant::new(width, height, 4, tokens, true).unwrap()
    }

    /// A board drawn top row first with the variant's tokens and any other character for empty.
    fn board(variant: &Variant, rows_top_down: &[&str]) -> Board {
        let mut board = Board::empty(variant.width(), variant.height());
        for (i, line) in rows_top_down.iter().enumerate() {
            for (column, c) in line.chars().enumerate() {
                if let Some(player) = variant.player_of(c) {
                    let row = variant.height() - 1 - i;
                    board.set(Cell { row, column }, player);
                }
            }
        }
        board
    }

    #[test]
    fn the_indexed_layout_labels_columns_from_0_and_wraps_after_9() {
        let standard = variant(3, 2, ['x', 'o']);
        let drawn = render_indexed(&board(&standard, &["o..", "xx."]), &standard);
        assert_eq!(drawn, "o . .\nx x .\n0 1 2\n");
        let wide = variant(12, 1, ['x', 'o']);
        let drawn = render_indexed(&board(&wide, &["..........ox"]), &wide);
        assert_eq!(drawn, ". . . . . . . . . . o x\n0 1 2 3 4 5 6 7 8 9 0 1\n");
    }

    #[test]
    fn names_round_trip() {
        for style in Style::ALL {
            assert_eq!(Style::from_name(style.name()), Some(style));
        }
        assert_eq!(Style::from_name("Grid"), None);
        assert_eq!(Style::from_name("ascii"), None);
    }

    #[test]
    fn grid_reproduces_the_grid_program() {
        let v = variant(7, 6, ['x', 'o']);
        let b = board(
            &v,
            &[
                ".......", ".......", ".......", "xoooo..", "oxxxoxo", "xoxxoox",
            ],
        );
        let expected = "  +---+---+---+---+---+---+---+
  |   |   |   |   |   |   |   |
  +---+---+---+---+---+---+---+
  |   |   |   |   |   |   |   |
  +---+---+---+---+---+---+---+
  |   |   |   |   |   |   |   |
  +---+---+---+---+---+---+---+
  | x | o | o | o | o |   |   |
  +---+---+---+---+---+---+---+
  | o | x | x | x | o | x | o |
  +---+---+---+---+---+---+---+
  | x | o | x | x | o | o | x |
  +---+---+---+---+---+---+---+
col 1   2   3   4   5   6   7
";
        assert_eq!(render(&b, &v, Style::Grid), expected);
    }

    #[test]
    fn dots_reproduce_the_dots_program() {
        let v = variant(7, 6, ['X', 'Y']);
        let b = board(
            &v,
            &[
                ".......", ".......", ".......", ".......", ".XXX...", "XYYYY..",
            ],
        );
        let expected = " 1  2  3  4  5  6  7
 .  .  .  .  .  .  .
 .  .  .  .  .  .  .
 .  .  .  .  .  .  .
 .  .  .  .  .  .  .
 .  X  X  X  .  .  .
 X  Y  Y  Y  Y  .  .
";
        assert_eq!(render(&b, &v, Style::Dots), expected);
    }

    #[test]
    fn letters_reproduce_the_letters_program() {
        let v = variant(7, 6, ['X', 'O']);
        let rows = [
            ".......", ".......", "O......", "X.O...O", "XXOX..X", "XOOXOOX",
        ];
        let b = board(&v, &rows);
        let expected = format!("ABCDEFG\n{}\n", rows.join("\n"));
        assert_eq!(render(&b, &v, Style::Letters), expected);
    }

    #[test]
    fn pipes_reproduce_the_pipes_program() {
        let v = variant(7, 6, ['X', 'O']);
        let b = board(
            &v,
            &[
                ".......", ".......", ".......", ".......", "..O.O..", "XXXXO..",
            ],
        );
        let expected = "| | | | | | | |
| | | | | | | |
| | | | | | | |
| | | | | | | |
| | |O| |O| | |
|X|X|X|X|O| | |
---------------
 0 1 2 3 4 5 6
";
        assert_eq!(render(&b, &v, Style::Pipes), expected);
    }

    #[test]
    fn numbers_reproduce_the_numbers_program() {
        let v = variant(7, 6, ['x', 'o']);
        let b = board(
            &v,
            &[
                ".......", ".......", ".......", "...o...", "..ox...", ".xxoo..",
            ],
        );
        let expected = "0 0 0 0 0 0 0
0 0 0 0 0 0 0
0 0 0 0 0 0 0
0 0 0 2 0 0 0
0 0 2 1 0 0 0
0 1 1 2 2 0 0
";
        assert_eq!(render(&b, &v, Style::Numbers), expected);
    }

    #[test]
    fn tabs_reproduce_the_dots_programs_requirements() {
        // The illustration in the dots program's requirements, tabs and all.
        let picture = "1\t2\t3\t4\t5\t6\t7
-\t-\t-\t-\t-\t-\t-
-\t-\t-\tX\t-\t-\t-
-\t-\tX\tO\t-\t-\t-
-\tX\tO\tO\t-\t-\t-
X\tO\tO\tX\t-\t-\t-
X\tO\tX\tX\t-\t-\t-
";
        let v = variant(7, 6, ['X', 'O']);
        let rows: Vec<String> = picture
            .lines()
            .skip(1)
            .map(|l| l.replace('\t', ""))
            .collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        assert_eq!(render(&board(&v, &rows), &v, Style::Tabs), picture);
    }

    #[test]
    fn labels_can_be_any() {
        let v = variant(3, 2, ['x', 'o']);
        let b = board(&v, &[".o.", "xx."]);
        let letters = |number: u64| ((b'a' + number as u8 - 1) as char).to_string();
        let draw = |style| render_labelled(&b, &v, style, &letters);
        assert!(draw(Style::Grid).ends_with("\ncol a   b   c\n"));
        assert!(draw(Style::Dots).starts_with(" a  b  c\n"));
        assert!(draw(Style::Letters).starts_with("abc\n"));
        assert!(draw(Style::Pipes).ends_with("\n a b c\n"));
        assert_eq!(draw(Style::Numbers), render(&b, &v, Style::Numbers));
        assert!(draw(Style::Tabs).starts_with("a\tb\tc\n"));
        // One character per column: the last one of a two-digit label.
        let v = variant(12, 2, ['x', 'o']);
        let b = Board::empty(12, 2);
        let pipes = render_labelled(&b, &v, Style::Pipes, &|n| n.to_string());
        assert!(pipes.ends_with("\n 1 2 3 4 5 6 7 8 9 0 1 2\n"));
    }

    #[test]
    fn one_by_one() {
        let v = variant(1, 1, ['x', 'o']);
        let b = board(&v, &["x"]);
        let draw = |style| render(&b, &v, style);
        assert_eq!(draw(Style::Grid), "  +---+\n  | x |\n  +---+\ncol 1\n");
        assert_eq!(draw(Style::Dots), " 1\n x\n");
        assert_eq!(draw(Style::Letters), "A\nx\n");
        assert_eq!(draw(Style::Pipes), "|x|\n---\n 0\n");
        assert_eq!(draw(Style::Numbers), "1\n");
        assert_eq!(draw(Style::Tabs), "1\nx\n");
        let empty = Board::empty(1, 1);
        assert_eq!(render(&empty, &v, Style::Dots), " 1\n .\n");
        assert_eq!(render(&empty, &v, Style::Pipes), "| |\n---\n 0\n");
    }

    #[test]
    fn three_by_two() {
        let v = variant(3, 2, ['x', 'o']);
        let b = board(&v, &[".o.", "xx."]);
        let draw = |style| render(&b, &v, style);
        assert_eq!(
            draw(Style::Grid),
            "  +---+---+---+
  |   | o |   |
  +---+---+---+
  | x | x |   |
  +---+---+---+
col 1   2   3
"
        );
        assert_eq!(draw(Style::Dots), " 1  2  3\n .  o  .\n x  x  .\n");
        assert_eq!(draw(Style::Letters), "ABC\n.o.\nxx.\n");
        assert_eq!(draw(Style::Pipes), "| |o| |\n|x|x| |\n-------\n 0 1 2\n");
        assert_eq!(draw(Style::Numbers), "0 2 0\n1 1 0\n");
        assert_eq!(draw(Style::Tabs), "1\t2\t3\n-\to\t-\nx\tx\t-\n");
    }

    #[test]
    fn sixteen_by_sixteen() {
        let v = variant(16, 16, ['x', 'o']);
        let mut rows = vec!["................"; 15];
        rows.push("x..............o");
        let b = board(&v, &rows);
        let draw = |style| render(&b, &v, style);

        let grid = draw(Style::Grid);
        let lines: Vec<&str> = grid.lines().collect();
        assert_eq!(lines.len(), 2 * 16 + 2);
        assert_eq!(lines[0], format!("  +{}", "---+".repeat(16)));
        assert_eq!(lines[31], format!("  | x |{} o |", "   |".repeat(14)));
        assert_eq!(
            lines[33],
            "col 1   2   3   4   5   6   7   8   9   10  11  12  13  14  15  16"
        );
        // Every label starts under its cell's centre.
        assert_eq!(lines[31].find('o'), lines[33].find("16"));

        let dots = draw(Style::Dots);
        let lines: Vec<&str> = dots.lines().collect();
        assert_eq!(lines.len(), 17);
        assert_eq!(lines[0], " 1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16");
        assert_eq!(lines[16], format!(" x{}  o", "  .".repeat(14)));
        assert_eq!(lines[16].rfind('o'), lines[0].rfind('6'));

        let letters = draw(Style::Letters);
        let lines: Vec<&str> = letters.lines().collect();
        assert_eq!(lines[0], "ABCDEFGHIJKLMNOP");
        assert_eq!(lines[16], "x..............o");

        let pipes = draw(Style::Pipes);
        let lines: Vec<&str> = pipes.lines().collect();
        assert_eq!(lines.len(), 18);
        assert_eq!(lines[15], format!("|x|{}o|", " |".repeat(14)));
        assert_eq!(lines[16], "-".repeat(33));
        assert_eq!(lines[17], " 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5");

        let tabs = draw(Style::Tabs);
        let lines: Vec<&str> = tabs.lines().collect();
        assert_eq!(lines.len(), 17);
        assert!(lines[0].ends_with("\t15\t16"));
        assert_eq!(lines[16], format!("x{}\to", "\t-".repeat(14)));
    }

    #[test]
    fn no_trailing_spaces_or_empty_lines_on_any_size() {
        for width in 1..=16 {
            for height in [1, 2, 6, 16] {
                let v = variant(width, height, ['x', 'o']);
                let b = Board::empty(width, height);
                for style in Style::ALL {
                    let text = render(&b, &v, style);
                    assert!(text.ends_with('\n'));
                    for line in text.lines() {
                        assert!(!line.is_empty(), "{style:?} {width}x{height}");
                        assert_eq!(line, line.trim_end(), "{style:?} {width}x{height}");
                    }
                }
            }
        }
    }
}
