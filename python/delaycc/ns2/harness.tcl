# delaycc's ns-2 harness: sampling and end-of-run counters for a translated scenario. The translated script
# (delaycc.ns2.translate) defines the topology, fills the arrays below and then sources these procedures.
#   dcc_flows:      flow indices;  dcc_tcp(i), dcc_sink(i): agents;  dcc_kind(i): fast, vegas or other;
#                   dcc_tick(i): its tcpTick_;  globals dcc_cwnd_<i> ... aliased to its variables
#   dcc_queues:     monitored link directions;  dcc_qmon(q): its QueueMonitor
#   dcc_interval, dcc_samples, dcc_duration, dcc_out: sampling period, count, run length, output folder
# Output (CSV, one header line each): flows.csv, queues.csv every dcc_interval; end.csv at the end.

proc dcc_queue_row {q} {
    global dcc_qmon dcc_lossmon
    # The instvar names are the monitor's own variables: read them, never assign to them.
    $dcc_qmon($q) instvar pkts_ pdrops_ bdepartures_ pdepartures_
    set drops $pdrops_
    if {[info exists dcc_lossmon($q)]} {
        set drops [expr {$drops + [$dcc_lossmon($q) set pdrops_]}]
    }
    return "$pkts_,$drops,$bdepartures_,$pdepartures_"
}

proc dcc_sink_bytes {s} {
    $s instvar bytes_
    return $bytes_
}

proc dcc_losses {q} {
    # Packets lost after the queue (Bernoulli loss, a link that is down), counted by their own monitor.
    global dcc_lossmon
    if {[info exists dcc_lossmon($q)]} {
        return [$dcc_lossmon($q) set pdrops_]
    }
    return 0
}

# Sampling reads the agents' variables through global aliases made when the script created them
# (dcc_cwnd_<i>, ...: `$agent instvar {cwnd_ dcc_cwnd_<i>}`), a plain variable read each, instead of an
# OTcl method call per variable, which made sampling cost several times the simulation itself.
proc dcc_sample {k} {
    global ns dcc_flows dcc_sink dcc_kind dcc_tick dcc_queues dcc_qmon dcc_interval dcc_samples
    global dcc_ff dcc_qf dcc_duration dcc_target dcc_stopped dcc_completed
    set now [$ns now]
    set lines {}
    foreach i $dcc_flows {
        upvar #0 dcc_cwnd_$i cwnd dcc_ack_$i ack dcc_seq_$i seq dcc_ssth_$i ssth dcc_srtt_$i srtt
        set tick $dcc_tick($i)
        # rtt (latest sample), srtt (smoothed) and base RTT in seconds, as the agent keeps them.
        set smoothed [expr {$srtt / 8.0 * $tick}]
        switch -- $dcc_kind($i) {
            fast {
                upvar #0 dcc_avg_$i avg dcc_base_$i base
                set row "$avg,$avg,$base"
            }
            vegas {
                upvar #0 dcc_vrtt_$i vrtt
                set row "$vrtt,$smoothed,"
            }
            default {
                upvar #0 dcc_rtt_$i rtt
                set row "[expr {$rtt * $tick}],$smoothed,"
            }
        }
        set delivered [dcc_sink_bytes $dcc_sink($i)]
        # A finite transfer ends when its last byte arrives: its counters are read then (at this sample),
        # so that idle timer expiries afterwards do not count.
        if {[info exists dcc_target($i)] && ![info exists dcc_stopped($i)] && $delivered >= $dcc_target($i)} {
            set dcc_stopped($i) [dcc_counters $i]
            set dcc_completed($i) $now
        }
        lappend lines "$now,$i,$cwnd,$ack,$seq,$row,$delivered,$ssth"
    }
    puts $dcc_ff [join $lines "\n"]
    set lines {}
    foreach q $dcc_queues {
        lappend lines "$now,$q,[dcc_queue_row $q]"
    }
    if {$lines != {}} {
        puts $dcc_qf [join $lines "\n"]
    }
    if {$k < $dcc_samples} {
        $ns at [expr {($k + 1) * $dcc_interval}] "dcc_sample [expr {$k + 1}]"
    } elseif {$now >= $dcc_duration - 1e-9} {
        dcc_finish
    } else {
        $ns at $dcc_duration "dcc_finish"
    }
}

proc dcc_counters {i} {
    # A flow's end-of-run counters, read when it stops (what it does after its stop is not its run).
    global dcc_tcp dcc_sink dcc_kind
    set t $dcc_tcp($i)
    set lines {}
    foreach v {ndatapack_ nrexmitpack_ nrexmit_ ncwndcuts_ ack_ cwnd_} {
        lappend lines "flow,$i,$v,[$t set $v]"
    }
    lappend lines "flow,$i,bytes_,[$dcc_sink($i) set bytes_]"
    if {$dcc_kind($i) == "fast"} {
        lappend lines "flow,$i,baseRTT_,[$t set baseRTT_]"
        lappend lines "flow,$i,avgRTT_,[$t set avgRTT_]"
    }
    return $lines
}

proc dcc_stop {i} {
    global dcc_app dcc_stopped
    $dcc_app($i) stop
    set dcc_stopped($i) [dcc_counters $i]
}

proc dcc_finish {} {
    global ns dcc_flows dcc_tcp dcc_sink dcc_kind dcc_queues dcc_qmon dcc_ff dcc_qf dcc_out dcc_stopped
    global dcc_completed
    set now [$ns now]
    set f [open [file join $dcc_out end.csv] w]
    puts $f "kind,id,name,value"
    foreach i $dcc_flows {
        if {[info exists dcc_stopped($i)]} {
            set lines $dcc_stopped($i)
        } else {
            set lines [dcc_counters $i]
        }
        foreach line $lines {
            puts $f $line
        }
        if {[info exists dcc_completed($i)]} {
            puts $f "flow,$i,completion_s,$dcc_completed($i)"
        }
    }
    foreach q $dcc_queues {
        set m $dcc_qmon($q)
        set integ [$m get-pkts-integrator]
        $integ newpoint $now [$integ set lasty_]
        puts $f "queue,$q,pkts_sum,[$integ set sum_]"
        foreach v {parrivals_ pdepartures_ bdepartures_ pdrops_ pkts_} {
            puts $f "queue,$q,$v,[$m set $v]"
        }
        puts $f "queue,$q,loss_drops,[dcc_losses $q]"
    }
    close $f
    close $dcc_ff
    close $dcc_qf
    # Written last: its presence says the run reached its end.
    set done [open [file join $dcc_out done] w]
    puts $done $now
    close $done
    exit 0
}

proc dcc_start {} {
    global ns dcc_out dcc_ff dcc_qf dcc_interval dcc_duration
    set dcc_ff [open [file join $dcc_out flows.csv] w]
    puts $dcc_ff "time,flow,cwnd,ack,t_seqno,rtt,srtt,basertt,sink_bytes,ssthresh"
    set dcc_qf [open [file join $dcc_out queues.csv] w]
    puts $dcc_qf "time,queue,pkts,pdrops,bdepartures,pdepartures"
    # The last sample ends the run, so that it is taken before the counters are read.
    $ns at $dcc_interval "dcc_sample 1"
    $ns run
}
