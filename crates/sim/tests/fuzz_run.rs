//! Property test: random valid scenarios (chain and dumbbell topologies, 1-10 flows of any algorithm with
//! random parameters, 1 kbps-10 Gbps links with 0-1 s delays, 1-10000 packet buffers, 0-10 % loss, CBR
//! and on/off sources, one in five with an event budget `[limits] max_events`) are accepted, run to the end
//! (or to exactly their budget) without panicking, and keep the invariants of `invariants::check`: packet
//! conservation, queues within buffers, finite positive windows, throughput within capacity, increasing
//! sample times.
//!
//! `make test` runs `DEFAULT_CASES` cases (about 2 s here); `make fuzz` sets PROPTEST_CASES to run many
//! more.

mod gen;
mod invariants;

use delaycc_sim::scenario;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use std::time::Duration;

const DEFAULT_CASES: u32 = 1000;

fn config() -> ProptestConfig {
    let mut c = ProptestConfig { failure_persistence: None, ..ProptestConfig::default() };
    if std::env::var_os("PROPTEST_CASES").is_none() {
        c.cases = DEFAULT_CASES;
    }
    c
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn valid_scenarios_run_and_keep_the_invariants(g in gen::scenario()) {
        let text = g.to_toml();
        let sc = scenario::from_toml_str(&text, "fuzz.toml")
            .map_err(|e| TestCaseError::fail(format!("a valid scenario was refused: {e:?}")))?;
        let sim = invariants::run(sc, Duration::from_secs(20)).map_err(TestCaseError::fail)?;
        invariants::check(&sim).map_err(TestCaseError::fail)?;
    }
}
