//! Fuzzes the protocol session directly, fast: each line of the input is parsed and executed on
//! one `Session` of an untrusted client (as `c4 serve` runs it), with no thread and no I/O.
//! Every search runs with its stop flag already set, so it ends at its first look at the flag
//! and answers as a stopped search does. Checked for every command: no panic; a failed command
//! leaves the game, the names and what `fen`, `status`, `legal` and `names` answer exactly as
//! they were; a reply is never empty where the protocol gives text.
#![no_main]

use std::sync::atomic::Ordering;

use c4_core::fen_of;
use c4_core::TableSize;
use c4_core::Variant;
use c4_core::{parse_request, Command, Session, Step, Trust};
use libfuzzer_sys::fuzz_target;

/// What a failed command must leave as it was.
fn state(session: &Session) -> (String, String, Vec<String>, Vec<u32>) {
    let game = session.game();
    (
        format!("{:?}", game.variant()),
        fen_of(game).to_string(),
        session.names().to_vec(),
        game.history().iter().map(|c| c.index() as u32).collect(),
    )
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut session = Session::with_trust(Variant::default(), Trust::Untrusted);
    // The smallest table: a session that searches makes one, for every input.
    let Step::Reply(Ok(_), _) = session.execute(Command::Hash(TableSize::BATCH)) else {
        panic!("hash 2 is refused");
    };
    for line in text.lines() {
        let Ok(command) = parse_request(line).command else {
            continue;
        };
        let before = state(&session);
        let failed = match session.execute(command) {
            Step::Reply(reply, _) => reply.is_err(),
            Step::Search(search) => {
                search.stop_flag().store(true, Ordering::Relaxed);
                if search.is_stream() {
                    session.end_stream(search.run_stream(&mut |_| Ok(())).0);
                    false
                } else {
                    session.finish(search.run()).is_err()
                }
            }
        };
        if failed {
            assert_eq!(
                state(&session),
                before,
                "{line:?} failed and changed the session"
            );
        }
    }
});
