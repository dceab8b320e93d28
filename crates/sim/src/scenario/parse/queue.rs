//! A link direction's queue discipline: `queue` (a name from `net/queue/registry.rs`) and `queue_params`
//! (checked against that discipline's schema and its rules), or with `reverse_` for b->a, which takes the
//! a->b discipline unless it names its own (as ns-2's `duplex-link` puts one queue type on both sides).

use super::fields::line_of;
use super::flow_params::read_values;
use crate::model::{Buffer, ParamSpec, QueueSpec};
use crate::net::queue::{queue_discipline, queue_disciplines};
use crate::scenario::check::{as_string, Checker, Table};
use crate::scenario::text::join;

/// The discipline of one direction; None if it was invalid (and reported). `buffer` is the direction's,
/// for the rules that tie parameters to it.
pub(super) fn queue(
    t: &mut Table,
    prefix: &str,
    forward: Option<&QueueSpec>,
    buffer: Option<Buffer>,
    ck: &mut Checker,
) -> Option<QueueSpec> {
    let kind_key = format!("{prefix}queue");
    let params_key = format!("{prefix}queue_params");
    let given_kind = match t.node(&kind_key) {
        Some(n) => Some(as_string(n, &t.key_path(&kind_key), ck)?),
        None => None,
    };
    let params_node = t.node(&params_key);
    let inherited = forward.filter(|_| given_kind.is_none());
    if let (Some(f), None) = (inherited, params_node) {
        // The a->b discipline was checked against the a->b buffer; b->a may have a buffer of its own.
        let own_buffer =
            [format!("{prefix}buffer"), format!("{prefix}buffer_bytes")].into_iter().find(|k| t.has(k));
        if let (Some(buffer), Some(key)) = (buffer, own_buffer) {
            let info = queue_discipline(f.kind).expect("the forward direction's discipline is known");
            if let Err((param, why)) = (info.check)(&f.params, buffer) {
                let l = line_of(t, &key);
                ck.error(
                    l,
                    &t.key_path(&key),
                    format!(
                        "too small for the {} discipline b->a takes from a->b: queue_params.{param}: {why}",
                        f.kind
                    ),
                );
                return None;
            }
        }
        return Some(f.clone());
    }
    let name = given_kind.as_deref().or(inherited.map(|f| f.kind)).unwrap_or("droptail");
    let Some(info) = queue_discipline(name) else {
        let names: Vec<&str> = queue_disciplines().iter().map(|q| q.name).collect();
        let l = line_of(t, &kind_key);
        ck.error(
            l,
            &t.key_path(&kind_key),
            format!("unknown queue discipline '{name}'; known: {}", names.join(", ")),
        );
        return None;
    };
    let mut params = info.defaults();
    let schema: Vec<&'static ParamSpec> = info.params.iter().collect();
    let errors_before = ck.errors.len();
    read_values(info.name, &schema, &mut params, params_node, &t.key_path(&params_key), ck);
    if ck.errors.len() > errors_before {
        return None;
    }
    if let Some(buffer) = buffer {
        if let Err((key, why)) = (info.check)(&params, buffer) {
            let at = params_node.and_then(|n| match &n.value {
                crate::scenario::tree::Value::Table(e) => {
                    e.iter().find(|(k, _)| k == key).and_then(|(_, v)| v.line)
                }
                _ => None,
            });
            let at = at.or(params_node.and_then(|n| n.line)).or(line_of(t, &kind_key));
            ck.error(at, &join(&t.key_path(&params_key), key), why);
            return None;
        }
    }
    Some(QueueSpec { kind: info.name, params })
}
