//! `c4 play`: Connect Four for people at a terminal, from a start menu through whole games, in
//! its own words or, with `--classic` ([`classic`]), in those of one of the original programs.
//! This front end does its own I/O on any `BufRead`/`Write` pair; every rule, layout, file
//! format and move choice comes from the layers below.

pub mod classic;
mod conversation;
mod options;
pub use classic::Program;
pub use conversation::run;
pub use options::{
    check_name, level_name, parse_level, BoardStyle, ColumnNames, OptionError, PlayOptions,
    SETTINGS,
};

mod terminal;
pub use terminal::{run_classic_stdio, run_stdio};
