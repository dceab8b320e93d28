//! Python bindings: a thin layer over delaycc-sim. Scenario text goes in, plain data comes out (JSON for
//! the summary, raw little-endian f64 buffers for the time series so Python never loops per sample).
//! The engine runs with the GIL released; Rust panics are caught here and never reach Python as panics.

use delaycc_sim::cc::registry_json;
use delaycc_sim::measure::pcap::PcapOptions;
use delaycc_sim::{scenario, Scenario};
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Parses and validates; a panic in the validator (a bug) becomes one more message, never a crash.
fn parse(text: &str, file: &str, format: &str) -> Result<Scenario, Vec<String>> {
    catch_unwind(|| match format {
        "json" => scenario::from_json_str(text, file),
        _ => scenario::from_toml_str(text, file),
    })
    .unwrap_or_else(|_| {
        Err(vec![format!("{file}: internal error while validating (please report this scenario)")])
    })
}

/// Validates a scenario; returns its problems, one line each (empty when valid).
#[pyfunction]
fn validate(text: &str, file: &str, format: &str) -> Vec<String> {
    parse(text, file, format).err().unwrap_or_default()
}

/// Simulated duration of a valid scenario, in seconds (for progress bars); None when invalid.
#[pyfunction]
fn duration_s(text: &str, file: &str, format: &str) -> Option<f64> {
    parse(text, file, format).ok().map(|s| delaycc_sim::time::secs(s.duration))
}

/// The work a run of a valid scenario will be, estimated before it starts (`sim/estimate.rs`), as JSON:
/// data_packets, acks, datagrams, packets, events, memory_bytes, max_events (the scenario's budget, or
/// null) and profile (a list of [seconds, cumulative events], linear in between); None when invalid.
#[pyfunction]
fn estimate_json(text: &str, file: &str, format: &str) -> Option<String> {
    let sc = parse(text, file, format).ok()?;
    catch_unwind(|| delaycc_sim::sim::estimate(&sc).to_json()).ok().map(|v| v.to_string())
}

/// Writes `n` little-endian f64 values straight into a new `bytes` (no intermediate copy: the time series
/// can be most of a run's memory).
fn f64_bytes<'py>(
    py: Python<'py>,
    n: usize,
    values: impl Iterator<Item = f64>,
) -> PyResult<Bound<'py, PyBytes>> {
    PyBytes::new_with(py, n * 8, |buf| {
        put_f64s(buf, values);
        Ok(())
    })
}

/// Writes `values` into `dst` as little-endian f64s, as many as fit.
fn put_f64s(dst: &mut [u8], values: impl IntoIterator<Item = f64>) {
    for (chunk, v) in dst.chunks_exact_mut(8).zip(values) {
        chunk.copy_from_slice(&v.to_le_bytes());
    }
}

/// Runs a scenario. Returns a dict: summary (JSON text), times (f64 bytes), series (list of
/// (kind, id, metric)), values (f64 bytes, series after series), outcome ("completed", "interrupted",
/// "max_events" or "max_memory"; the results of a run stopped early cover what was simulated).
/// `max_events` and `max_memory` (bytes) replace the scenario's `[limits]`. With `pcap_dir`, the packet
/// traces the scenario asks for (and with `pcap_flows` one per flow) are written there; a trace that
/// cannot be written raises RuntimeError naming the file. Raises ValueError with the
/// validation lines joined by newlines if the scenario is invalid. A KeyboardInterrupt (Ctrl-C, or raised
/// by `progress`) stops the run with outcome "interrupted"; any other exception from `progress` or a signal
/// handler is raised.
#[pyfunction]
#[pyo3(signature = (text, file, format, seed=None, progress=None, progress_every_s=0.02, max_events=None, max_memory=None, pcap_dir=None, pcap_flows=false))]
#[allow(clippy::too_many_arguments)]
fn run<'py>(
    py: Python<'py>,
    text: &str,
    file: &str,
    format: &str,
    seed: Option<u64>,
    progress: Option<Py<PyAny>>,
    progress_every_s: f64,
    max_events: Option<u64>,
    max_memory: Option<u64>,
    pcap_dir: Option<std::path::PathBuf>,
    pcap_flows: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let mut sc =
        parse(text, file, format).map_err(|e| pyo3::exceptions::PyValueError::new_err(e.join("\n")))?;
    if let Some(s) = seed {
        sc.seed = s;
    }
    if max_events.is_some() {
        sc.limits.max_events = max_events;
    }
    if max_memory.is_some() {
        sc.limits.max_memory = max_memory;
    }
    let py_error: Arc<Mutex<Option<PyErr>>> = Arc::new(Mutex::new(None));
    let err_slot = py_error.clone();
    // NaN and infinity would make Duration panic.
    let every = Duration::from_secs_f64(if progress_every_s.is_finite() {
        progress_every_s.clamp(0.01, 3600.0)
    } else {
        0.02
    });
    let result = py.detach(move || {
        let mut last = Instant::now();
        let progress_hook = move |now: u64| -> bool {
            if last.elapsed() < every {
                return true;
            }
            last = Instant::now();
            Python::attach(|py| {
                let outcome = py.check_signals().and_then(|_| match &progress {
                    Some(cb) => cb.call1(py, (delaycc_sim::time::secs(now),)).map(|_| ()),
                    None => Ok(()),
                });
                match outcome {
                    Ok(()) => true,
                    Err(e) => {
                        if let Ok(mut slot) = err_slot.lock() {
                            *slot = Some(e);
                        }
                        false
                    }
                }
            })
        };
        let pcap = pcap_dir.map(|dir| PcapOptions { dir, all_flows: pcap_flows });
        catch_unwind(AssertUnwindSafe(|| delaycc_sim::run_scenario_with(sc, pcap.as_ref(), progress_hook)))
    });
    // Ctrl-C ends the run with its results so far; other exceptions propagate without them.
    if let Some(e) = py_error.lock().ok().and_then(|mut s| s.take()) {
        if !e.is_instance_of::<PyKeyboardInterrupt>(py) {
            return Err(e);
        }
    }
    let r = result
        .map_err(|p| {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown".into());
            PyRuntimeError::new_err(format!("{file}: internal simulator error: {msg}"))
        })?
        .map_err(|e| PyRuntimeError::new_err(format!("{file}: {e}")))?;
    let out = PyDict::new(py);
    out.set_item("outcome", r.outcome.stop_reason().unwrap_or("completed"))?;
    out.set_item("summary", serde_json::to_string(&r.summary).unwrap_or_default())?;
    out.set_item("times", f64_bytes(py, r.times.len(), r.times.iter().copied())?)?;
    let names: Vec<(String, String, String)> =
        r.series.iter().map(|s| (s.kind.to_string(), s.id.clone(), s.metric.to_string())).collect();
    out.set_item("series", names)?;
    let samples = r.values.samples();
    let mut column = vec![0.0; samples];
    let values = PyBytes::new_with(py, r.series.len() * samples * 8, |buf| {
        for (i, bytes) in buf.chunks_exact_mut((samples * 8).max(1)).enumerate() {
            r.values.write_series(i, &mut column);
            put_f64s(bytes, column.iter().copied());
        }
        Ok(())
    })?;
    drop(r);
    out.set_item("values", values)?;
    Ok(out)
}

/// Bytes in a size such as "2GiB" or "512MB" (the scenario format's sizes); ValueError naming the problem.
#[pyfunction]
fn parse_size(text: &str) -> PyResult<u64> {
    let v = delaycc_sim::units::size_from_str(text).map_err(pyo3::exceptions::PyValueError::new_err)?;
    if v.fract() != 0.0 || !(1.0..=(1u64 << 60) as f64).contains(&v) {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "'{text}' is not a whole number of bytes from 1 B to 1 EiB"
        )));
    }
    Ok(v as u64)
}

/// A scenario value with a unit, as the scenario checker reads it: a string such as "20ms", or a bare
/// number (seconds, bits per second, bytes). Integers and floats go the checker's way (as_duration,
/// with_unit in scenario/check.rs); anything else is refused with the checker's wording.
enum UnitValue {
    Int(i64),
    Float(f64),
    Text(String),
}

fn unit_value(value: &Bound<'_, PyAny>, what: &str) -> PyResult<UnitValue> {
    let refuse = |kind: &str| pyo3::exceptions::PyValueError::new_err(format!("must be {what}, not {kind}"));
    if value.is_instance_of::<PyString>() {
        Ok(UnitValue::Text(value.extract()?))
    } else if value.is_instance_of::<PyBool>() {
        Err(refuse("boolean"))
    } else if value.is_instance_of::<PyInt>() {
        value.extract().map(UnitValue::Int).map_err(|_| refuse("an integer out of 64-bit range"))
    } else if value.is_instance_of::<PyFloat>() {
        Ok(UnitValue::Float(value.extract()?))
    } else {
        Err(refuse(&value.get_type().name()?.to_string()))
    }
}

/// A rate or size through its parser, numbers spelled as the checker spells them before parsing.
fn with_unit(value: UnitValue, parse: fn(&str) -> Result<f64, String>) -> PyResult<f64> {
    match value {
        UnitValue::Int(i) => parse(&i.to_string()),
        UnitValue::Float(f) if f.is_finite() => parse(&format!("{f:e}")),
        UnitValue::Float(_) => Err("must be a finite number".into()),
        UnitValue::Text(s) => parse(&s),
    }
    .map_err(pyo3::exceptions::PyValueError::new_err)
}

/// Seconds in a scenario duration ("20ms", or a number of seconds), rounded to the engine's nanoseconds;
/// ValueError with the engine's one-line reason.
#[pyfunction]
fn parse_duration(value: &Bound<'_, PyAny>) -> PyResult<f64> {
    let ns = match unit_value(value, "a duration such as '20ms'")? {
        UnitValue::Int(i) => delaycc_sim::units::duration_from_secs(i as f64),
        UnitValue::Float(f) => delaycc_sim::units::duration_from_secs(f),
        UnitValue::Text(s) => delaycc_sim::units::duration_from_str(&s),
    }
    .map_err(pyo3::exceptions::PyValueError::new_err)?;
    Ok(delaycc_sim::time::secs(ns))
}

/// Bits per second in a scenario rate ("100Mbps", or a number of bits per second); ValueError with the
/// engine's one-line reason.
#[pyfunction]
fn parse_rate(value: &Bound<'_, PyAny>) -> PyResult<f64> {
    with_unit(unit_value(value, "a rate such as '100Mbps'")?, delaycc_sim::units::rate_from_str)
}

/// Bytes in a scenario size ("64KiB", or a number of bytes) as the engine reads it, fractions and zero
/// included (`parse_size` is the stricter reading of a memory budget); ValueError with the engine's
/// one-line reason.
#[pyfunction]
fn parse_bytes(value: &Bound<'_, PyAny>) -> PyResult<f64> {
    with_unit(unit_value(value, "a size such as '1500B'")?, delaycc_sim::units::size_from_str)
}

/// The memory budget of a run without `max_memory`, in bytes: half the machine's (or its cgroup's) memory.
#[pyfunction]
fn default_max_memory() -> u64 {
    delaycc_sim::sim::default_max_memory()
}

/// Every flow's transport as the run resolves it (profile defaults, `[transport]`, the flow's own keys,
/// and SACK's default from the flow's algorithm), as a JSON list in flow order: durations in seconds.
/// The ns-2 translation and the kernel emulation read this instead of restating the defaults.
#[pyfunction]
fn transports_json(text: &str, file: &str, format: &str) -> Option<String> {
    let sc = parse(text, file, format).ok()?;
    let flows: Vec<serde_json::Value> = sc
        .flows
        .iter()
        .map(|f| {
            let t = &f.transport;
            let ctx = delaycc_sim::cc::FlowContext::new(t.initial_window);
            let cc = delaycc_sim::cc::build_controller(f.algorithm, &f.params, &ctx);
            let recovery = cc.recovery();
            let s = delaycc_sim::time::secs;
            serde_json::json!({
                "id": f.id,
                "profile": format!("{:?}", t.profile).to_lowercase(),
                "min_rto": s(t.min_rto),
                "max_rto": s(t.max_rto),
                "initial_rto": s(t.initial_rto),
                "delayed_ack": t.delayed_ack,
                "delayed_ack_timeout": s(t.delayed_ack_timeout),
                "initial_window": t.initial_window,
                "receiver_window": t.receiver_window,
                "dupack_threshold": t.dupack_threshold,
                "pacing": t.pacing,
                "syn": t.syn_for(cc.sends_syn()),
                "rto": format!("{:?}", t.rto).to_lowercase(),
                "rtt_tick": s(t.rtt_tick),
                "limited_transmit": t.limited_transmit,
                "newreno_timer": format!("{:?}", t.newreno_timer),
                "recovery_maxburst": t.recovery_maxburst,
                "recover_guard": format!("{:?}", t.recover_guard).to_lowercase(),
                "sack": t.sack_for(recovery),
                "partial_ack": t.partial_ack,
                "ecn": t.ecn,
                "recovery": format!("{recovery:?}"),
            })
        })
        .collect();
    serde_json::to_string(&flows).ok()
}

/// The algorithm registry as JSON: name, description, parameters (name, kind, default, description, source).
#[pyfunction]
fn algorithms_json() -> String {
    serde_json::to_string(&registry_json()).unwrap_or_default()
}

/// The queue disciplines (name, description, source, parameters) and the capacity models of a link direction.
#[pyfunction]
fn queues_json() -> String {
    let v = serde_json::json!({
        "disciplines": delaycc_sim::net::queue::queue_registry_json(),
        "capacities": delaycc_sim::net::capacity::capacity_models_json(),
    });
    serde_json::to_string(&v).unwrap_or_default()
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(duration_s, m)?)?;
    m.add_function(wrap_pyfunction!(estimate_json, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(algorithms_json, m)?)?;
    m.add_function(wrap_pyfunction!(queues_json, m)?)?;
    m.add_function(wrap_pyfunction!(transports_json, m)?)?;
    m.add_function(wrap_pyfunction!(parse_size, m)?)?;
    m.add_function(wrap_pyfunction!(parse_duration, m)?)?;
    m.add_function(wrap_pyfunction!(parse_rate, m)?)?;
    m.add_function(wrap_pyfunction!(parse_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(default_max_memory, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
