//! Helpers shared by the integration tests that run the real binary on fixture scripts.

use std::fs;
use std::path::{Path, PathBuf};

/// A new empty folder named after `suite` and `name`, holding copies of `fixtures/files/`, for
/// scripts that save and load.
pub fn scratch_folder(suite: &str, name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("c4-{suite}-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&folder);
    fs::create_dir_all(&folder).unwrap();
    let files = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/files");
    for entry in fs::read_dir(files).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), folder.join(entry.file_name())).unwrap();
    }
    folder
}
