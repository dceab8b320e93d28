"""Which ns-2 agent runs each delaycc algorithm, and how each algorithm parameter maps onto it.

A parameter either maps to a Tcl variable of the agent (always set from the scenario's resolved value, so
both simulators run the same specification) or names behaviour the ns-2 agent has built in. A scenario
that sets such a parameter to anything else is refused; left at delaycc's default where that differs from
the agent, it is listed among the run's known differences (docs/crosscheck.md explains each).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class AgentSpec:
    agent: str
    """Class under Agent/TCP."""
    sink: str
    """Receiver class: TCPSink (cumulative ACKs) or TCPSink/Sack1 (SACK blocks)."""
    tcl_vars: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """delaycc parameter -> agent variables, set from the scenario's value (explicit or default)."""
    integer: frozenset[str] = frozenset()
    """Parameters the agent holds as integers (TracedInt/int in ns-2): fractional values are refused."""
    explicit_vars: dict[str, str] = field(default_factory=dict)
    """delaycc parameter -> agent variable, set only when the scenario sets it (otherwise ns-2's default,
    because delaycc's default means something the variable does not)."""
    built_in: dict[str, Any] = field(default_factory=dict)
    """delaycc parameter -> the value that describes what the ns-2 agent always does."""
    choice_vars: dict[str, tuple[str, dict[str, float]]] = field(default_factory=dict)
    """delaycc choice parameter -> (agent variable, the variable's value for each choice)."""


AGENTS: dict[str, AgentSpec] = {
    # tcp/tcp-fast.cc (CUBIN FAST module v1.1.3). Its fast retransmit counts a duplicate ACK only when its
    # SACK scoreboard changes, so with a plain TCPSink every loss ends in a timeout; delaycc's FAST
    # retransmits on three duplicate ACKs, which the module does only with a SACK sink (as the module's
    # own example scripts use).
    "fast": AgentSpec(
        agent="Fast",
        sink="TCPSink/Sack1",
        # delaycc's beta is the module's beta_ (the top of its dead band); 0, delaycc's default, and any
        # value up to alpha_ mean no band, as the module's own default beta_ = alpha_ = 100 does.
        tcl_vars={
            "alpha": ("alpha_",),
            "beta": ("beta_",),
            "gamma": ("gamma_",),
            "mi_threshold": ("mi_threshold_",),
            "min_update_interval": ("cwnd_update_period_",),
        },
        integer=frozenset({"alpha", "beta"}),
        choice_vars={"window_arithmetic": ("high_accuracy_cwnd_", {"int": 0, "int_carry": 1, "double": 2})},
        built_in={
            "cadence": "ns2",  # fast_cc / fast_pace / fast_est
            "update_every_other_rtt": True,  # UPDATE_CWND_EVERY_OTHER_RTT is defined in tcp-fast.h
            "spread_increase": True,  # fast_pace()
            "mi_reentry": True,  # the MI test runs on every new ACK
            "cap_2w": False,  # no cap on one update
            "avg_rtt_max_weight": 1 / 256,  # weight min(3/flight, 1/256)
            "pacing": False,
        },
    ),
    # tcp/tcp-vegas.cc, which delaycc's default flavour follows: the round's mean RTT (v_sumRTT_/v_cntRTT_),
    # window 3/4 on fast retransmit.
    "vegas": AgentSpec(
        agent="Vegas",
        sink="TCPSink",
        tcl_vars={"alpha": ("v_alpha_",), "beta": ("v_beta_",), "gamma": ("v_gamma_",)},
        integer=frozenset({"alpha", "beta", "gamma"}),
        built_in={"flavour": "ns2", "rtt_statistic": "mean", "loss_reduction": 0.75},
    ),
    # ssthresh_ is reset to window_ when the run starts; the translation sets it again as the flow starts.
    "newreno": AgentSpec(agent="Newreno", sink="TCPSink", tcl_vars={"initial_ssthresh": ("ssthresh_",)}),
    "reno": AgentSpec(agent="Reno", sink="TCPSink", tcl_vars={"initial_ssthresh": ("ssthresh_",)}),
}

AT_START_VARS = ("ssthresh_",)
"""Variables ns-2 overwrites when the run starts (TcpAgent::reset): set when the flow starts instead."""
MAX_TCL_INT = 2**31 - 1

SACK_AGENT = "Sack1"
"""Agent/TCP/Sack1 with TCPSink/Sack1: what `--ns2-agent FLOW=Sack1` (or a suite case) asks for."""

AGENT_CHOICES = ("Fast", "Vegas", "Newreno", "Reno", "Sack1")
SINK_CHOICES = ("TCPSink", "TCPSink/Sack1")
