//! Tool search on the evaluation set (`dsh_tools_tests::search_eval`): 550 tools of 65
//! MCP-like servers, deferred, and queries in a user's words. Asserts floors a little under the
//! measured hit rates, so a change that makes ranking worse fails here.
//!
//! Run with `--nocapture` to see every query's rank and the figures.

use dsh_tools::ToolRegistry;
use dsh_tools_tests::search_eval;

/// The floors, in queries: a little under what the default ranker measures.
const TOP1_FLOOR: usize = 47;
const TOP3_FLOOR: usize = 70;

fn catalogue_registry() -> ToolRegistry {
    let registry = ToolRegistry::new();
    registry
        .register_all(
            search_eval::catalog()
                .iter()
                .map(|tool| tool.to_tool(true))
                .collect::<Vec<_>>(),
        )
        .expect("the catalogue registers");
    registry
}

#[test]
fn the_default_ranker_finds_tools_asked_for_in_a_users_words() {
    let registry = catalogue_registry();
    let score = search_eval::measure(&registry);
    for (query, rank, found) in &score.ranks {
        let rank = rank.map_or("miss".to_owned(), |rank| format!("#{rank}"));
        println!("  {query:?} → {rank} {found:?}");
    }
    println!("{score}");
    assert!(score.top1 >= TOP1_FLOOR, "{score}");
    assert!(score.top3 >= TOP3_FLOOR, "{score}");
}

#[test]
fn many_queries_share_no_word_with_their_tool() {
    let (paraphrases, queries) = search_eval::paraphrase_share();
    println!("{paraphrases} of {queries} queries share no word with their tool");
    assert!(
        queries >= 100 && paraphrases * 4 >= queries,
        "{paraphrases} of {queries}"
    );
}

/// The floors on the queries written after tuning.
const HELD_OUT_TOP3_FLOOR: usize = 18;

#[test]
fn the_default_ranker_carries_over_to_queries_it_was_not_tuned_on() {
    let registry = catalogue_registry();
    let score = search_eval::measure_queries(&registry, search_eval::HELD_OUT);
    for (query, rank, found) in &score.ranks {
        let rank = rank.map_or("miss".to_owned(), |rank| format!("#{rank}"));
        println!("  {query:?} → {rank} {found:?}");
    }
    println!("held out: {score}");
    assert!(score.top3 >= HELD_OUT_TOP3_FLOOR, "{score}");
}
