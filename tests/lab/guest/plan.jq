# plan.jq - a plan (`netpolicy --json IF set POLICY --dry-run`) as lib.sh's
# "KEY VALUE" lines: for each planned change, the kernel_view key it must
# change and the value the kernel must show afterwards.  "unknown.*" marks a
# knob this file does not know yet (check_applied fails on it).

def onoff: if . == true then "1" elif . == false then "0" else . end;
def mask: .;	# an empty cpulist is "" in plans as in states (netpolicy-json(7))
def indir: if .spread == "even" then "even over \(.queues) queues" else "custom over queues \(.min_queue)-\(.max_queue)" end;
def queue($p): ltrimstr($p) | split(" ")[0];

.steps[] | .knob as $k | .changes[]
| if $k == "channels" then "channels.\(.what) \(.after)"
  elif $k == "rings" then "rings.\(.what | gsub("-"; "_")) \(.after)"
  elif $k == "coalesce" then "coalesce.\(.what) \(.after | onoff)"
  elif $k == "irq-affinity" then "irq.\(.what | split(" ")[0]).affinity \(.after)"
  elif $k == "xps" then "txq.\(.what | queue("tx-")).xps_cpus \(.after | mask)"
  elif $k == "rps" then "rxq.\(.what | queue("rx-")).rps_cpus \(.after | mask)"
  elif $k == "rfs" then "rxq.\(.what | queue("rx-")).rps_flow_cnt \(.after)"
  elif $k == "sysctl" then "sysctl.\(.what | ltrimstr("net.core.")) \(.after)"
  elif $k == "napi" then "napi.\(.what | gsub("-"; "_")) \(.after)"
  elif $k == "features" then "feature.\(.what) \(.after | onoff)"
  elif $k == "rss" and .what == "indir" then "rss.indir \(.after | indir)"
  else "unknown.\($k).\(.what | gsub(" "; "_")) \(.after)"
  end
