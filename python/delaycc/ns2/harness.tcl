# delaycc's ns-2 harness: sampling and end-of-run counters for a translated scenario. The translated script
# (delaycc.ns2.translate) defines the topology, fills the arrays below and then sources these procedures.
#   dcc_flows:      flow indices;  dcc_tcp(i), dcc_sink(i): agents;  dcc_kind(i): fast, vegas or other
#   dcc_queues:     monitored link directions;  dcc_qmon(q): its QueueMonitor
#   dcc_interval, dcc_samples, dcc_duration, dcc_out: sampling period, count, run length, output folder
# Output (CSV, one header line each): flows.csv, queues.csv every dcc_interval; end.csv at the end.

proc dcc_rtts {i} {
    # rtt (latest sample), srtt (smoothed) and base RTT in seconds, as the agent keeps them.
    global dcc_tcp dcc_kind
    set t $dcc_tcp($i)
    set tick [$t set tcpTick_]
    set srtt [expr {[$t set srtt_] / 8.0 * $tick}]
    switch -- $dcc_kind($i) {
        fast {
            set avg [$t set avgRTT_]
            return [list $avg $avg [$t set baseRTT_]]
        }
        vegas {
            return [list [$t set v_rtt_] $srtt ""]
        }
        default {
            return [list [expr {[$t set rtt_] * $tick}] $srtt ""]
        }
    }
}

proc dcc_losses {q} {
    # Packets lost after the queue (Bernoulli loss, a link that is down), counted by their own monitor.
    global dcc_lossmon
    if {[info exists dcc_lossmon($q)]} {
        return [$dcc_lossmon($q) set pdrops_]
    }
    return 0
}

proc dcc_sample {k} {
    global ns dcc_flows dcc_tcp dcc_sink dcc_queues dcc_qmon dcc_interval dcc_samples dcc_ff dcc_qf
    global dcc_duration
    set now [$ns now]
    foreach i $dcc_flows {
        set t $dcc_tcp($i)
        lassign [dcc_rtts $i] rtt srtt base
        puts $dcc_ff "$now,$i,[$t set cwnd_],[$t set ack_],[$t set t_seqno_],$rtt,$srtt,$base,[$dcc_sink($i) set bytes_],[$t set ssthresh_]"
    }
    foreach q $dcc_queues {
        set m $dcc_qmon($q)
        puts $dcc_qf "$now,$q,[$m set pkts_],[expr {[$m set pdrops_] + [dcc_losses $q]}],[$m set bdepartures_],[$m set pdepartures_]"
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
