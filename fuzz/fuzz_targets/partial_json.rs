//! The streamed-arguments reader on text cut anywhere: [`PartialJson`] fed a value's bytes in
//! fragments (cut inside strings, escapes, numbers and UTF-8 characters) must never panic, must
//! read each byte once, must end exactly as it ends when fed the whole text at once, and must
//! agree with `serde_json` on what is JSON (but for a key given twice, which it refuses by
//! design) and on the value. Its work is linear in the text: run with `-timeout` and a large
//! `-max_len` and a slow unit is a bug.

#![no_main]

use dsh_tools::providers::stream::PartialJson;
use libfuzzer_sys::fuzz_target;

/// At most this many fragments: asking for the value after each costs its length.
const MAX_CUTS: usize = 32;

fuzz_target!(|data: &[u8]| {
    let Some((&seed, text)) = data.split_first() else {
        return;
    };
    // Cut points from the seed and the text's own bytes: deterministic for the input.
    let cuts = (seed as usize % MAX_CUTS) + 1;
    let mut fragments = Vec::with_capacity(cuts);
    let mut start = 0;
    for index in 0..cuts {
        if start >= text.len() {
            break;
        }
        let left = text.len() - start;
        let step = if index + 1 == cuts {
            left
        } else {
            1 + (text[start] as usize ^ seed as usize) % left
        };
        fragments.push(&text[start..start + step]);
        start += step;
    }

    let mut cut = PartialJson::default();
    for fragment in &fragments {
        let failed = cut.push_bytes(fragment).is_err();
        // The value so far is always there to ask for, whatever the text is.
        let _ = cut.value();
        if failed {
            break;
        }
    }
    let cut_end = cut.end();

    let mut whole = PartialJson::default();
    let whole_end = whole.push_bytes(text).and_then(|()| whole.end());
    assert_eq!(
        cut_end.is_ok(),
        whole_end.is_ok(),
        "cut {:?} vs whole {:?}",
        cut_end,
        whole_end
    );
    if cut_end.is_ok() {
        assert_eq!(cut.bytes_read(), text.len(), "every byte read once");
        assert_eq!(cut.value(), whole.value(), "the same value however the text is cut");
    }

    match serde_json::from_slice::<serde_json::Value>(text) {
        Ok(expected) => match &whole_end {
            Ok(()) => assert_eq!(whole.value(), Some(expected)),
            Err(error) => assert!(
                error.reason.contains("twice"),
                "serde_json reads it, the reader refuses it: {error}"
            ),
        },
        Err(_) => assert!(whole_end.is_err(), "serde_json refuses it, the reader took it"),
    }
});
