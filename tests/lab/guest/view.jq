# view.jq - netpolicy's `show --json` as lib.sh's "KEY VALUE" lines, the same
# lines lib.sh's kernel_view writes from ethtool, /proc/irq and sysfs.

def bool01: if type == "boolean" then (if . then 1 else 0 end) else . end;

# a knob of counts with a maximum each (channels, rings); nothing but
# `supported` when the driver lacks it
def counts($knob; $keys):
	.[$knob] as $o
	| "\($knob).supported \($o.supported)",
	  (select($o.supported) | $keys[] | "\($knob).\(.) \($o[.])", "\($knob).max_\(.) \($o["max_" + .])");

"ifname \(.ifname)",
"driver \(.driver)",
counts("channels"; ["rx", "tx", "other", "combined"]),
counts("rings"; ["rx", "rx_mini", "rx_jumbo", "tx"]),
"coalesce.supported \(.coalesce.supported)",
# a field the device cannot change (in "fixed") is coalesce-fixed.NAME, as in
# lib.sh's kernel_view, which tells them by the virtio feature bits
(select(.coalesce.supported) | .coalesce as $c | $c.fields | to_entries[] | .key as $k
	| "coalesce\(if ($c.fixed // []) | any(.[]; . == $k) then "-fixed" else "" end).\($k) \(.value | bool01)"),
"rss.supported \(.rss.supported)",
(select(.rss.supported) | .rss
	| "rss.indir_size \(.indir_size)",
	  "rss.indir \(.indir | map(tostring) | join(" "))",
	  (select(.key != null and .key != "") | "rss.key \(.key | gsub(":"; "") | ascii_downcase)"),
	  (select(.hfunc != null) | "rss.hfunc \(.hfunc)")),
"irqs \([.irqs[].irq] | sort | map(tostring) | join(" "))",
(.irqs[] | "irq.\(.irq).name \(.name)", "irq.\(.irq).role \(.kind) \(.queue // -1)",
	"irq.\(.irq).affinity \(.affinity)", "irq.\(.irq).effective \(.effective)"),
"rxqs \(.queues.rx | length)",
"txqs \(.queues.tx | length)",
(.queues.rx[] | "rxq.\(.queue).rps_cpus \(.rps_cpus)", "rxq.\(.queue).rps_flow_cnt \(.rps_flow_cnt)"),
(.queues.tx[] | (select(.xps_cpus != null) | "txq.\(.queue).xps_cpus \(.xps_cpus)"),
	"txq.\(.queue).xps_rxqs \(.xps_rxqs)"),
(.features.list // {} | to_entries[] | select(.key == "rx-hashing" or .key == "rx-ntuple-filter" or .key == "rx-gro")
	| "feature.\(.key) \(.value.active | bool01)"),
(select(.napi.supported) | "napi.defer_hard_irqs \(.napi.defer_hard_irqs)", "napi.gro_flush_timeout \(.napi.gro_flush_timeout)"),
(.sysctl // {} | to_entries[] | select(.value != null and (.key | endswith("_error") | not)) | "sysctl.\(.key) \(.value)")
